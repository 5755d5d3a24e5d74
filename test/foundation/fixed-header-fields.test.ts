import { type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type LiveServer, startLiveServer } from '../support/live-server.js';
import { TEST_KEY } from '../support/test-app.js';

/**
 * Over HTTP, Fastify's answers to requests without `Origin` carry the security and CORS fields as
 * one block joined at start-up (src/http/header-block.ts); `inject` answers take the field-by-
 * field path. Both must carry the same fields with the same values, whatever the route answers.
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
const VARYING = ['date', 'connection', 'keep-alive', 'content-length', 'etag', 'x-ratelimit-remaining'];
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
        // Each field once: a block field is never sent twice.
        expect(new Set(viaHttp.order).size, label).toBe(viaHttp.order.length);
        // The block goes first, right after the status line; `Vary` stays a reply field (caching
        // adds to it), so it comes after the block: the sign the block was used.
        expect(viaHttp.order[0], label).toBe('content-security-policy');
        if (viaHttp.headers.vary !== undefined) {
          expect(viaHttp.order.indexOf('vary'), label).toBeGreaterThan(
            viaHttp.order.indexOf('access-control-expose-headers'),
          );
        }
      }
    });
  }

  it('leaves requests with an Origin to the field-by-field path', async () => {
    const server = await startLiveServer({ env: { NODE_ENV: 'production', CORS_ORIGINS: 'http://ui.test' } });
    servers.push(server);
    const headers = { 'x-api-key': TEST_KEY, origin: 'http://ui.test', 'x-request-id': 'with-origin' };
    const viaHttp = await overHttp(server.baseUrl, { method: 'GET', url: '/api/apps', headers });
    const viaInject = await server.app.inject({ method: 'GET', url: '/api/apps', headers });
    expect(comparable(viaHttp.headers)).toEqual(comparable(viaInject.headers));
    expect(viaHttp.headers['access-control-allow-origin']).toBe('http://ui.test');
  });
});
