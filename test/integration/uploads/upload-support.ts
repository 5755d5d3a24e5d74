import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/database.js';
import type { Dialect } from '../../support/test-database.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

export const REPORTS_DIR = new URL('../../fixtures/reporters/reports/', import.meta.url);

/** A report made by a real reporter (test/fixtures/reporters/generate.sh). */
export const fixture = (name: string) => readFileSync(new URL(name, REPORTS_DIR));

export const XML = 'application/xml';
export const JSON_TYPE = 'application/json';

export type Api = (options: InjectOptions) => Promise<LightMyRequestResponse>;

export interface UploadOptions {
  contentType?: string;
  gzip?: boolean;
  query?: Record<string, string | number>;
}

export function upload(api: Api, body: Buffer | string, options: UploadOptions = {}) {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  const query = new URLSearchParams(
    Object.entries(options.query ?? {}).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return api({
    method: 'POST',
    url: `/api/test_results?${query.toString()}`,
    headers: {
      ...(options.contentType !== undefined ? { 'content-type': options.contentType } : {}),
      ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
    },
    payload: options.gzip ? gzipSync(raw) : raw,
  });
}

/** Creates an app over the API and returns its id, name and code. */
export async function createApp(api: Api, name: string, watching = true) {
  const code = `${name}-${randomUUID().slice(0, 6)}`;
  const response = await api({
    method: 'POST',
    url: '/api/apps',
    payload: { name, code, pipelineUrl: 'https://ci.example.com/p', watching },
  });
  if (response.statusCode !== 201) throw new Error(`app not created: ${response.body}`);
  return { id: response.json<{ data: { id: number } }>().data.id, name, code };
}

/** Row counts of the upload tables, to show that a refused upload stored nothing. */
export async function uploadTableCounts(database: DatabaseHandle) {
  const count = async (table: 'test_result_uploads' | 'test_result_specs' | 'test_result_failures') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    uploads: await count('test_result_uploads'),
    specs: await count('test_result_specs'),
    failures: await count('test_result_failures'),
  };
}

/**
 * The API suites' set-up: a test app on `dialect` with uploads limited to 256 KiB and a watched
 * app `shop`; `send` uploads a body for `shop` (the query adds to or overrides `app`).
 */
export function uploadSuite(dialect: Dialect) {
  const suite = {} as { t: TestApp; shop: { id: number; code: string } };
  const api: Api = (options) => suite.t.api(options);
  beforeAll(async () => {
    suite.t = await createTestApp({ dialect, env: { UPLOAD_MAX_BYTES: String(256 * 1024) } });
    suite.shop = await createApp(api, 'shop');
  });
  afterAll(async () => suite.t.close());
  const send = (
    body: Buffer | string,
    contentType: string,
    query: Record<string, string | number> = {},
    gzip = false,
  ) => upload(api, body, { contentType, gzip, query: { app: suite.shop.code, ...query } });
  return { suite, api, send };
}
