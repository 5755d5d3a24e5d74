import { type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openTestDatabase } from '../../support/test-database.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { TEST_KEY, testConfig } from '../../support/test-app.js';
import { createTestContainer } from '../../support/test-container.js';

/**
 * Tests mostly answer through `inject`; production answers over a socket. One request pipeline
 * serves both, so the same request must get the same status and header fields either way, and a
 * field a route's hook removes or adds must be what a client over the wire receives.
 */
interface Exchange {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Header names in the order they were sent. */
  order: string[];
}

function overHttp(baseUrl: string, exchange: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${exchange.url}`,
      { method: exchange.method, headers: exchange.headers ?? {} },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            order: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(exchange.body);
  });
}

/** Fields that differ between two calls of the same request (time, new ids, counters). */
const VARYING = [
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'etag',
  'x-ratelimit-remaining',
  // Seconds left in the window: two calls may fall on either side of a second.
  'x-ratelimit-reset',
];
const comparable = (headers: IncomingHttpHeaders | OutgoingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !VARYING.includes(name)));

const json = { 'x-api-key': TEST_KEY, 'content-type': 'application/json' };
const exchanges: Exchange[] = [
  { method: 'GET', url: '/api/apps', headers: { 'x-api-key': TEST_KEY } },
  { method: 'GET', url: '/api/apps' },
  { method: 'GET', url: '/api/apps', headers: { 'x-api-key': 'wrong-key' } },
  { method: 'HEAD', url: '/api/apps', headers: { 'x-api-key': TEST_KEY } },
  { method: 'GET', url: '/api/no-such-route', headers: { 'x-api-key': TEST_KEY } },
  { method: 'GET', url: '/health?verbose=1' },
  { method: 'GET', url: '/openapi.json' },
  { method: 'GET', url: '/docs', headers: { 'x-api-key': TEST_KEY } },
  { method: 'GET', url: '/metrics', headers: { 'x-api-key': TEST_KEY } },
  { method: 'GET', url: '/' },
  { method: 'POST', url: '/api/to_do_list', headers: json, body: JSON.stringify({ title: 'Fixed fields' }) },
  { method: 'POST', url: '/api/to_do_list', headers: json, body: '{"title": ' },
  { method: 'POST', url: '/api/to_do_list', headers: json, body: JSON.stringify({ title: 42 }) },
  { method: 'DELETE', url: '/api/to_do_list/999999', headers: { 'x-api-key': TEST_KEY } },
  { method: 'GET', url: '/api/to_do_list?limit=abc', headers: { 'x-api-key': TEST_KEY } },
];

describe('fixed header fields over HTTP', () => {
  const servers: LiveServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  const policies: Record<string, string>[] = [
    { NODE_ENV: 'development' },
    { NODE_ENV: 'production', CORS_ORIGINS: 'http://ui.test' },
    { NODE_ENV: 'production', CORS_ORIGINS: '*' },
  ];

  for (const env of policies) {
    it(`are the fields inject sends, route by route (${JSON.stringify(env)})`, async () => {
      const server = await startLiveServer({ env: { RATE_LIMIT_MAX: '1000', ...env } });
      servers.push(server);
      for (const exchange of exchanges) {
        const id = { 'x-request-id': `fixed-${exchanges.indexOf(exchange)}` };
        const headers = { ...exchange.headers, ...id };
        const viaHttp = await overHttp(server.baseUrl, { ...exchange, headers });
        const viaInject = await server.app.inject({
          method: exchange.method as 'GET',
          url: exchange.url,
          headers,
          ...(exchange.body === undefined ? {} : { payload: exchange.body }),
        });
        const label = `${exchange.method} ${exchange.url} ${exchange.body ?? ''}`;
        expect(viaHttp.status, label).toBe(viaInject.statusCode);
        expect(comparable(viaHttp.headers), label).toEqual(comparable(viaInject.headers));
        expect(viaHttp.headers['x-frame-options'], label).toBe('DENY');
        // Each field once.
        expect(new Set(viaHttp.order).size, label).toBe(viaHttp.order.length);
      }
    });
  }

  it('are the fields inject sends for a request with an allowed Origin', async () => {
    const server = await startLiveServer({ env: { NODE_ENV: 'production', CORS_ORIGINS: 'http://ui.test' } });
    servers.push(server);
    const headers = { 'x-api-key': TEST_KEY, origin: 'http://ui.test', 'x-request-id': 'with-origin' };
    const viaHttp = await overHttp(server.baseUrl, { method: 'GET', url: '/api/apps', headers });
    const viaInject = await server.app.inject({ method: 'GET', url: '/api/apps', headers });
    expect(comparable(viaHttp.headers)).toEqual(comparable(viaInject.headers));
    expect(viaHttp.headers['access-control-allow-origin']).toBe('http://ui.test');
  });

  it("carry what a route's hooks removed, added and read, over a listening socket", async () => {
    const database = await openTestDatabase('sqlite');
    const container = createTestContainer(testConfig(), { database });
    const app = await buildApp(container);
    app.addHook('onClose', async () => {
      await container.close();
      await database.close();
    });
    const seen: Record<string, unknown> = {};
    app.get(
      '/hooked',
      {
        schema: { hide: true },
        onRequest: (_request, reply, done) => {
          void reply.header('x-added-on-request', 'early');
          done();
        },
        onSend: (_request, reply, payload, done) => {
          // Set by the security plugin's hook for every answer; this route opts out of it.
          seen.frameOptions = reply.getHeader('x-frame-options');
          void reply.removeHeader('x-frame-options').header('x-added-on-send', 'late');
          done(null, payload);
        },
      },
      async () => ({ ok: true }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    try {
      const answer = await overHttp(`http://127.0.0.1:${address.port}`, { method: 'GET', url: '/hooked' });
      expect(answer.status).toBe(200);
      expect(seen.frameOptions).toBe('DENY');
      expect(answer.headers['x-frame-options']).toBeUndefined();
      expect(answer.headers['x-added-on-request']).toBe('early');
      expect(answer.headers['x-added-on-send']).toBe('late');
      // The other security fields are still there.
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await app.close();
    }
  });
});
