import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReportWorker } from '../../../src/roles/worker.js';
import { eventually, startReportHarness } from '../../support/report-harness.js';
import { openTestDatabase } from '../../support/test-database.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { rawRequest } from '../../support/raw-http.js';
import { TEST_KEY } from '../../support/test-app.js';
import { call, nowIso, openBehindTheCache } from '../../support/cache-support.js';

describe('ETag and 304 on GET answers', () => {
  let server: LiveServer;
  let uncached: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer();
    uncached = await startLiveServer({ env: { RESPONSE_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => {
    await server.close();
    await uncached.close();
  });

  it('tags a cached read, answers 304 to its ETag and 200 with a new one after a write', async () => {
    const first = await call(server.baseUrl, '/api/to_do_list');
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.cacheControl).toBe('private, no-cache');

    const same = await call(server.baseUrl, '/api/to_do_list', { headers: { 'if-none-match': first.etag! } });
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.etag).toBe(first.etag);
    expect(same.cacheControl).toBe('private, no-cache');
    // A list of validators, or the weak form of ours, matches too.
    const listed = await call(server.baseUrl, '/api/to_do_list', {
      headers: { 'if-none-match': `"other", W/${first.etag!}` },
    });
    expect(listed.status).toBe(304);

    const created = await call(server.baseUrl, '/api/to_do_list', { method: 'POST', body: { title: 'New' } });
    expect(created.status).toBe(201);
    expect(created.etag).toBeNull();
    const changed = await call(server.baseUrl, '/api/to_do_list', {
      headers: { 'if-none-match': first.etag! },
    });
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.body.data.map((item: { title: string }) => item.title)).toEqual(['New']);
  });

  it('still checks the key before answering 304', async () => {
    const tagged = await call(server.baseUrl, '/api/apps');
    const response = await fetch(`${server.baseUrl}/api/apps`, {
      headers: { 'if-none-match': tagged.etag! },
    });
    expect(response.status).toBe(401);
  });

  it('tags routes outside the cache and answers 304 with the cache turned off', async () => {
    for (const [base, path] of [
      [server.baseUrl, '/api/notifications'],
      [uncached.baseUrl, '/api/apps'],
    ] as const) {
      const first = await call(base, path);
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^"[\w-]{27}"$/);
      const again = await call(base, path, { headers: { 'if-none-match': first.etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    }
    const error = await call(server.baseUrl, '/api/apps/999999');
    expect(error.status).toBe(404);
    expect(error.etag).toBeNull();
  });
});

describe('clock-dependent answers', () => {
  it('expire at midnight UTC even when nothing was written', async () => {
    const database = await openTestDatabase('sqlite');
    const behind = openBehindTheCache(database.testDb);
    const today = new Date().toISOString().slice(0, 10);
    let clock = Date.parse(`${today}T23:59:58.000Z`);
    const server = await startLiveServer({
      env: { RESPONSE_CACHE_TTL_MS: '3600000' },
      deps: { database, clock: () => clock },
    });
    try {
      const created = await call(server.baseUrl, '/api/apps', {
        method: 'POST',
        body: { name: 'Clocked', code: 'clocked', pipelineUrl: 'https://ci.example.com/p' },
      });
      const id = created.body.data.id as number;
      const before = await call(server.baseUrl, '/api/apps');
      expect(before.body.data[0].e2eRunsQuantity).toBe(0);
      // A run counted today appears behind the cache's back.
      await behind.db
        .insertInto('e2e_manual_runs')
        .values({
          app_id: id,
          pipeline_id: 'p-1',
          pipeline_number: 1,
          status: 'running',
          url: 'https://ci.example.com/p/1',
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
      clock += 1_999;
      expect((await call(server.baseUrl, '/api/apps')).text).toBe(before.text);
      clock += 1;
      const afterMidnight = await call(server.baseUrl, '/api/apps');
      expect(afterMidnight.body.data[0].e2eRunsQuantity).toBe(1);
      expect(afterMidnight.etag).not.toBe(before.etag);
    } finally {
      await server.close();
      await behind.close();
      await database.close();
    }
  });
});

describe('a report becoming ready', () => {
  it('drops the cached pending summary when the worker stores the ready one', async () => {
    const h = await startReportHarness({ worker: false, env: { RESPONSE_CACHE_TTL_MS: '600000' } });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const date = '2025-06-01';
    let worker: Awaited<ReturnType<typeof startReportWorker>> | undefined;
    try {
      expect((await call(base, `/api/e2e_run_report?date=${date}`)).status).toBe(202);
      const pending = await call(base, `/api/e2e_reports/${date}`);
      expect(pending.body.data.status).toBe('pending');
      expect((await call(base, `/api/e2e_reports/${date}`)).etag).toBe(pending.etag);

      worker = await startReportWorker(h.container);
      const ready = await eventually(
        () => call(base, `/api/e2e_reports/${date}`),
        (answer) => answer.body.data.status === 'ready',
        5000,
      );
      expect(ready.etag).not.toBe(pending.etag);
      expect((await call(base, `/api/e2e_run_report?date=${date}`)).status).toBe(200);
    } finally {
      await worker?.stop(5000);
      await h.close();
    }
  });
});

describe('compressed cached answers', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer();
    for (let i = 0; i < 30; i += 1) {
      await call(server.baseUrl, '/api/to_do_list', { method: 'POST', body: { title: `Item number ${i}` } });
    }
  });
  afterAll(async () => server.close());

  /** A GET with the key whose body is returned as sent (fetch would decode it). */
  const raw = (path: string, headers: Record<string, string>) =>
    rawRequest(`${server.baseUrl}${path}`, { headers: { 'x-api-key': TEST_KEY, ...headers } });

  it('sends brotli or gzip to clients that accept it, each with its own ETag and 304', async () => {
    const plain = await raw('/api/to_do_list?limit=100', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Origin, Accept-Encoding');
    expect(plain.body.length).toBeGreaterThan(1024);

    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      // Twice: the miss that stores the answer and the hit that serves it are encoded alike.
      for (let round = 0; round < 2; round += 1) {
        const encoded = await raw('/api/to_do_list?limit=100', { 'accept-encoding': accept });
        expect(encoded.headers['content-encoding']).toBe(encoding);
        expect(encoded.body.length).toBeLessThan(plain.body.length / 3);
        expect(decode(encoded.body).toString()).toBe(plain.body.toString());
        expect(encoded.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-${encoding}"`);
        const again = await raw('/api/to_do_list?limit=100', {
          'accept-encoding': accept,
          'if-none-match': String(encoded.headers.etag),
        });
        expect(again.status).toBe(304);
        expect(again.body.length).toBe(0);
      }
    }
    // The tag of one encoding revalidates a request that now asks for another (same content).
    const brTag = `${String(plain.headers.etag).slice(0, -1)}-br"`;
    const crossed = await raw('/api/to_do_list?limit=100', { 'if-none-match': brTag });
    expect(crossed.status).toBe(304);
    expect(crossed.headers.etag).toBe(plain.headers.etag);
    const refused = await raw('/api/to_do_list?limit=100', { 'accept-encoding': 'br;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('leaves answers under 1 KB uncompressed', async () => {
    const small = await raw('/api/apps', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toMatchObject({ success: true, data: [] });
  });
});
