import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardClient } from './dashboard-client.js';
import { DashboardApiError, DashboardNetworkError, DashboardTimeoutError } from './errors.js';

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

/** A scripted HTTP server: answers the n-th request with the n-th reply (the last one repeats). */
async function scripted(replies: Reply[]) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; at: number }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, at: Date.now() });
    req.resume();
    replies[Math.min(seen.length - 1, replies.length - 1)]!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const envelope = (status: number, code: string, details?: unknown) =>
  json(
    status,
    { success: false, error: { message: `failed with ${code}`, code, statusCode: status, details } },
    {
      'x-request-id': 'req-42',
    },
  );
const hang: Reply = () => {};
const ok = json(200, { success: true, data: [] });

describe('client transport', () => {
  let server: Awaited<ReturnType<typeof scripted>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const client = (extra: Partial<ConstructorParameters<typeof DashboardClient>[0]> = {}) =>
    new DashboardClient({ baseUrl: server!.url, apiKey: 'k'.repeat(40), retryBaseDelayMs: 10, ...extra });

  it('sends the key and JSON, and reads the typed body', async () => {
    server = await scripted([json(201, { success: true, data: { id: 1, title: 'x' } })]);
    const created = await client().todos.create({ title: 'x' });
    expect(created.data.id).toBe(1);
    expect(server.seen[0]).toMatchObject({ method: 'POST', url: '/api/to_do_list' });
    expect(server.seen[0]!.headers['x-api-key']).toBe('k'.repeat(40));
    expect(server.seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    server = await scripted([
      envelope(503, 'SERVICE_UNAVAILABLE'),
      envelope(500, 'INTERNAL_SERVER_ERROR'),
      ok,
    ]);
    expect((await client().apps.list()).data).toEqual([]);
    expect(server.seen).toHaveLength(3);
  });

  it('honours Retry-After on 429 before retrying', async () => {
    server = await scripted([json(429, { error: 'slow down', retryAfter: 1 }, { 'retry-after': '1' }), ok]);
    await client().apps.list();
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('throws at once when Retry-After asks for longer than it may wait (brute-force block)', async () => {
    const body = { error: 'Too many failed attempts. Try again in 30 minutes.', retryAfter: 1800 };
    server = await scripted([json(429, body, { 'retry-after': '1800' })]);
    const error = await client()
      .apps.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DashboardApiError);
    expect(error).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 1800, body });
    expect((error as Error).message).toContain('Try again in 30 minutes');
    expect(server.seen).toHaveLength(1);
  });

  it('gives up after the configured retries with the last typed error', async () => {
    server = await scripted([envelope(502, 'EXTERNAL_SERVICE_ERROR')]);
    const error = await client({ retries: 2 })
      .tracker.manualQa()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'EXTERNAL_SERVICE_ERROR', requestId: 'req-42' });
    expect(server.seen).toHaveLength(3);
  });

  it('does not repeat a POST after a 500 (it may have taken effect), but does after 503', async () => {
    server = await scripted([envelope(500, 'INTERNAL_SERVER_ERROR')]);
    await expect(
      client().apps.create({ name: 'a', code: 'a', pipelineUrl: 'https://x.test' }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(server.seen).toHaveLength(1);
    await server.close();
    server = await scripted([
      envelope(503, 'SERVICE_UNAVAILABLE'),
      json(201, { success: true, data: { id: 3 } }),
    ]);
    expect(
      (await client().apps.create({ name: 'a', code: 'a', pipelineUrl: 'https://x.test' })).data.id,
    ).toBe(3);
    expect(server.seen).toHaveLength(2);
  });

  it('carries the envelope code and validation details, without retrying a 4xx', async () => {
    const details = [{ field: 'title', message: 'required', code: 'REQUIRED_FIELD' }];
    server = await scripted([envelope(400, 'VALIDATION_ERROR', details)]);
    const error = await client()
      .todos.update(1, { title: '' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details });
    expect(server.seen).toHaveLength(1);
  });

  it('times out each attempt, retrying idempotent requests only', async () => {
    server = await scripted([hang]);
    const started = Date.now();
    const error = await client({ timeoutMs: 150, retries: 1 })
      .apps.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DashboardTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 150 });
    expect(server.seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);

    const postError = await client({ timeoutMs: 150, retries: 3 })
      .manualRuns.trigger(1)
      .catch((e: unknown) => e);
    expect(postError).toBeInstanceOf(DashboardTimeoutError);
    expect(server.seen).toHaveLength(3);
  });

  it('retries a refused connection, then reports a network error', async () => {
    server = await scripted([ok]);
    const { url } = server;
    await server.close();
    server = undefined;
    const error = await new DashboardClient({
      baseUrl: url,
      apiKey: 'k',
      retries: 2,
      retryBaseDelayMs: 5,
    }).todos
      .deleteCompleted()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DashboardNetworkError);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('lets the caller cancel', async () => {
    server = await scripted([hang]);
    const controller = new AbortController();
    const pending = client().call('GET', '/api/apps', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by caller')), 50);
    await expect(pending).rejects.toThrow('cancelled by caller');
  });
});
