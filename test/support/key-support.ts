import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export interface MadeKey {
  id: number;
  key: string;
  prefix: string;
}

/** Makes a key through the API with the admin key of the test app. */
export async function makeKey(
  t: Pick<TestApp, 'api'>,
  body: { name?: string; scope: string; apps?: string[]; expiresAt?: string },
): Promise<MadeKey> {
  const response = await t.api({
    method: 'POST',
    url: '/api/keys',
    payload: { name: body.name ?? `${body.scope} key`, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: MadeKey }>().data;
}

/** Sends a request with another key than the test app's (and, optionally, from another address). */
export function withKey(t: Pick<TestApp, 'app'>, key: string, remoteAddress?: string) {
  return (options: InjectOptions): Promise<LightMyRequestResponse> =>
    t.app.inject({
      ...options,
      ...(remoteAddress ? { remoteAddress } : {}),
      headers: { ...(options.headers ?? {}), 'x-api-key': key },
    });
}

let ipCounter = 1;
/** An address no other test used, so brute-force counts start from zero. */
export const freshIp = () => `10.35.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

/** Makes an application through the API; returns its id. */
export async function makeApp(t: Pick<TestApp, 'api'>, code: string): Promise<number> {
  const response = await t.api({
    method: 'POST',
    url: '/api/apps',
    payload: { name: `App ${code}`, code, pipelineUrl: `https://ci.example.com/${code}` },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: { id: number } }>().data.id;
}

/** A small JUnit report, one passing and one failing test. */
export const JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="cart" tests="2" failures="1">
<testcase classname="cart" name="adds" file="cart.spec.ts" time="0.1"/>
<testcase classname="cart" name="pays" file="cart.spec.ts" time="0.2"><failure message="boom">boom</failure></testcase>
</testsuite></testsuites>`;
