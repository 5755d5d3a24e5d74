import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import type { TestDatabase } from '../support/test-database.js';
import { TEST_KEY } from './test-app.js';

export interface Answer {
  status: number;
  etag: string | null;
  cacheControl: string | null;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A real HTTP request with the API key; the body parsed when there is one. */
export async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-api-key': TEST_KEY,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    text,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/**
 * A second connection to the same database whose writes no cache hears of: what it changes shows
 * through the API only once the cached answer is dropped, which tells a cached answer from a
 * fresh one.
 */
export function openBehindTheCache(testDb: TestDatabase): DatabaseHandle {
  return openDatabase(testDb.config);
}

export const nowIso = () => new Date().toISOString();
