import type { IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type LiveServer, startLiveServer } from '../support/live-server.js';
import { TEST_KEY } from '../support/test-app.js';
import { type RawAnswer, rawRequest } from '../support/raw-http.js';

/** A GET (or `method`) over a real connection with exactly these headers. */
const get = (baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(`${baseUrl}${path}`, { method, headers });

/** What Fastify itself answers to the same request (inject never reaches the front door). */
async function fastifyAnswer(server: LiveServer, path: string, headers: Record<string, string>) {
  const res = await server.app.inject({ method: 'GET', url: path, headers });
  return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.rawPayload };
}

/** Headers the connection adds (or that change each second) are left out of the comparison. */
function comparable(headers: IncomingHttpHeaders) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

async function answeredAtFrontDoor(server: LiveServer): Promise<number> {
  const res = await server.app.inject({ url: '/metrics', headers: { 'x-api-key': TEST_KEY } });
  const line = /^dashboard_http_front_door_answers_total (\d+)$/m.exec(res.body);
  return Number(line?.[1] ?? NaN);
}

/**
 * Asserts the HTTP answer has Fastify's status and headers (its length too, unless the body
 * changes from one moment to the next, as /health's uptime and latencies do).
 */
async function expectSameAsFastify(server: LiveServer, path: string, headers: Record<string, string>) {
  const id = { 'x-request-id': `compare-${Math.random().toString(36).slice(2)}` };
  const viaHttp = await get(server.baseUrl, path, { ...headers, ...id });
  const viaFastify = await fastifyAnswer(server, path, { ...headers, ...id });
  expect(viaHttp.status).toBe(viaFastify.status);
  const lengthVaries = path === '/health' && viaHttp.status === 200;
  const headersOf = (answer: RawAnswer) => {
    const { 'content-length': length, ...rest } = comparable(answer.headers);
    return lengthVaries ? rest : { ...rest, 'content-length': length };
  };
  expect(headersOf(viaHttp)).toEqual(headersOf(viaFastify));
  if (lengthVaries) expect(Number(viaHttp.headers['content-length'])).toBe(viaHttp.body.length);
  return { viaHttp, viaFastify };
}

describe('front door', () => {
  const servers: LiveServer[] = [];
  const start = async (env: Record<string, string> = {}, deps = {}) => {
    const server = await startLiveServer({ env, deps });
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('answers /health, and its 304, exactly as Fastify does', async () => {
    const server = await start();
    const before = await answeredAtFrontDoor(server);
    const { viaHttp, viaFastify } = await expectSameAsFastify(server, '/health', {});
    expect(viaHttp.status).toBe(200);
    const [http, fastify] = [viaHttp, viaFastify].map((answer) => JSON.parse(answer.body.toString()));
    expect(Object.keys(http)).toEqual(Object.keys(fastify));
    expect({ ...http, uptime: 0, timestamp: '', checks: {} }).toEqual({
      ...fastify,
      uptime: 0,
      timestamp: '',
      checks: {},
    });
    expect(http.checks.database.status).toBe('ok');

    const etag = String(viaHttp.headers.etag);
    const notModified = await expectSameAsFastify(server, '/health', { 'if-none-match': etag });
    expect(notModified.viaHttp.status).toBe(304);
    expect(notModified.viaHttp.body.length).toBe(0);
    expect(await answeredAtFrontDoor(server)).toBe(before + 2);
  });

  it('answers a cached read in every representation exactly as Fastify does', async () => {
    const server = await start();
    for (let i = 0; i < 40; i += 1) {
      await server.app.inject({
        method: 'POST',
        url: '/api/to_do_list',
        headers: { 'x-api-key': TEST_KEY },
        payload: { title: `Item number ${i} with a title long enough to compress` },
      });
    }
    const path = '/api/to_do_list?limit=100';
    const key = { 'x-api-key': TEST_KEY };
    // The first read is Fastify's and fills the cache; the next ones come from the front door.
    await get(server.baseUrl, path, key);
    const before = await answeredAtFrontDoor(server);
    const plain = await expectSameAsFastify(server, path, key);
    expect(plain.viaHttp.body.equals(plain.viaFastify.body)).toBe(true);
    expect(plain.viaHttp.headers.vary).toBe('Origin, Accept-Encoding');
    for (const encoding of ['br', 'gzip']) {
      const encoded = await expectSameAsFastify(server, path, { ...key, 'accept-encoding': encoding });
      expect(encoded.viaHttp.headers['content-encoding']).toBe(encoding);
      expect(encoded.viaHttp.body.equals(encoded.viaFastify.body)).toBe(true);
      const tag = String(encoded.viaHttp.headers.etag);
      const revalidated = await expectSameAsFastify(server, path, { ...key, 'if-none-match': tag });
      expect(revalidated.viaHttp.status).toBe(304);
    }
    expect(await answeredAtFrontDoor(server)).toBe(before + 5);
  });

  it('leaves to Fastify whatever it cannot answer exactly alike', async () => {
    const server = await start();
    const key = { 'x-api-key': TEST_KEY };
    await get(server.baseUrl, '/api/apps', key);
    const before = await answeredAtFrontDoor(server);
    // An Origin (CORS answers per origin), another method, a query on /health, a body.
    const cors = await get(server.baseUrl, '/api/apps', { ...key, origin: 'http://elsewhere.test' });
    expect(cors.status).toBe(200);
    expect((await get(server.baseUrl, '/api/apps', key, 'HEAD')).status).toBe(200);
    expect((await get(server.baseUrl, '/health?verbose=1', {})).status).toBe(200);
    expect((await get(server.baseUrl, '/api/apps', { ...key, 'content-length': '0' })).status).toBe(200);
    // No key, a wrong key: Fastify refuses them and counts the wrong one.
    expect((await get(server.baseUrl, '/api/apps', {})).status).toBe(401);
    expect((await get(server.baseUrl, '/api/apps', { 'x-api-key': 'wrong' })).status).toBe(401);
    expect(await answeredAtFrontDoor(server)).toBe(before);
  });

  it('never serves a blocked address, even with the right key', async () => {
    const server = await start({ BRUTE_FORCE_MAX_ATTEMPTS: '2' });
    const key = { 'x-api-key': TEST_KEY };
    expect((await get(server.baseUrl, '/api/apps', key)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) await get(server.baseUrl, '/api/apps', { 'x-api-key': 'wrong' });
    const refused = await get(server.baseUrl, '/api/apps', key);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('counts cached reads against the rate limit, and leaves the refusal to Fastify', async () => {
    const server = await start({ RATE_LIMIT_MAX: '3' });
    const key = { 'x-api-key': TEST_KEY };
    // Fastify answers (and counts) the first read, the front door the next two.
    expect((await get(server.baseUrl, '/api/apps', key)).headers['x-ratelimit-remaining']).toBe('2');
    const before = await answeredAtFrontDoor(server);
    const second = await get(server.baseUrl, '/api/apps', key);
    const third = await get(server.baseUrl, '/api/apps', key);
    expect([second.status, third.status]).toEqual([200, 200]);
    expect(second.headers['x-ratelimit-limit']).toBe('3');
    expect([second.headers['x-ratelimit-remaining'], third.headers['x-ratelimit-remaining']]).toEqual([
      '1',
      '0',
    ]);
    expect(Number(third.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(await answeredAtFrontDoor(server)).toBe(before + 2);
    const refused = await get(server.baseUrl, '/api/apps', key);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body.toString()).toContain('Rate limit exceeded');
    expect(await answeredAtFrontDoor(server)).toBe(before + 2);
    // /health is outside the limited scope.
    expect((await get(server.baseUrl, '/health', {})).status).toBe(200);
  });

  it('sends the rate-limit headers Fastify sends, per route limit included', async () => {
    const server = await start({ RATE_LIMIT_MAX: '1000', RATE_LIMIT_ROUTES: 'GET /api/apps=50/60000' });
    const key = { 'x-api-key': TEST_KEY };
    for (const [path, limit] of [
      ['/api/apps', '50'],
      ['/api/to_do_list', '1000'],
    ] as const) {
      await get(server.baseUrl, path, key);
      const before = await answeredAtFrontDoor(server);
      const id = { 'x-request-id': `limit-${limit}` };
      const viaHttp = await get(server.baseUrl, path, { ...key, ...id });
      const viaFastify = await fastifyAnswer(server, path, { ...key, ...id });
      expect(await answeredAtFrontDoor(server)).toBe(before + 1);
      expect(viaHttp.headers['x-ratelimit-limit']).toBe(limit);
      // Each answer counted one request: Fastify's came after the front door's.
      expect(Number(viaFastify.headers['x-ratelimit-remaining'])).toBe(
        Number(viaHttp.headers['x-ratelimit-remaining']) - 1,
      );
      const { 'x-ratelimit-remaining': _http, ...httpRest } = comparable(viaHttp.headers);
      const { 'x-ratelimit-remaining': _fastify, ...fastifyRest } = comparable(viaFastify.headers);
      expect(httpRest).toEqual(fastifyRest);
    }
  });

  it('sends the CORS headers Fastify sends without an Origin, whatever the policy', async () => {
    const policies: Record<string, string>[] = [
      { NODE_ENV: 'development' },
      { NODE_ENV: 'production', CORS_ORIGINS: 'http://ui.test' },
      { NODE_ENV: 'production', CORS_ORIGINS: '*' },
    ];
    for (const env of policies) {
      const server = await start(env);
      const key = { 'x-api-key': TEST_KEY };
      await get(server.baseUrl, '/api/apps', key);
      const before = await answeredAtFrontDoor(server);
      await expectSameAsFastify(server, '/api/apps', key);
      await expectSameAsFastify(server, '/health', {});
      expect(await answeredAtFrontDoor(server)).toBe(before + 2);
    }
  });

  it('leaves requests forwarded by a trusted proxy to Fastify, which reads their address', async () => {
    const server = await start({ TRUST_PROXY: 'true' });
    const before = await answeredAtFrontDoor(server);
    expect((await get(server.baseUrl, '/health', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
    expect(await answeredAtFrontDoor(server)).toBe(before);
    expect((await get(server.baseUrl, '/health', {})).status).toBe(200);
    expect(await answeredAtFrontDoor(server)).toBe(before + 1);
  });

  it('logs each answer with the lines and fields Fastify logs at info', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const server = await start({ LOG_LEVEL: 'info' }, { log: pino({ level: 'info' }, sink) });
    await get(server.baseUrl, '/health', { 'x-request-id': 'front-door-log' });
    const logged = lines.filter((line) => line.reqId === 'front-door-log');
    expect(logged.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(logged[0]!.req).toMatchObject({ method: 'GET', url: '/health', remoteAddress: '127.0.0.1' });
    expect(logged[1]).toMatchObject({ res: { statusCode: 200 }, responseTime: expect.any(Number) });
  });

  it('hands requests to Fastify once the server is closing', async () => {
    const server = await start();
    const closing = server.app.close();
    const late = await get(server.baseUrl, '/health', {}).catch(() => undefined);
    // Either the connection was already refused, or Fastify answered its closing 503.
    if (late) expect(late.status).toBe(503);
    await closing;
    servers.splice(servers.indexOf(server), 1);
  });
});
