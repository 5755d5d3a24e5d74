import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
export type Json = Record<string, any>;

/** Ids a black-box client may try that are not positive integers the database could hold. */
export const BAD_IDS = ['abc', '0', '-1', '1.5', '99999999999999999999', '1e3', '0x10', '%20'];

/** Asserts the error envelope of the contract and returns its `field:code` detail pairs. */
export function expectEnvelope(response: LightMyRequestResponse, status: number, code: string): string[] {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<Json>();
  expect(body).toMatchObject({
    success: false,
    error: { code, statusCode: status, message: expect.any(String), path: expect.any(String) },
  });
  return ((body.error.details ?? []) as Json[]).map((detail) => `${detail.field}:${detail.code}`);
}

/** ISO-8601 timestamps as every API field carries them. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
