import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_KEY, type TestApp } from '../../../test/support/test-app.js';

/** The only routes that answer without the key: anything new and public must be added here. */
const PUBLIC_ROUTES = new Set([
  'GET /health',
  'HEAD /health',
  'POST /api/auth/validate',
  'GET /openapi.json',
  'HEAD /openapi.json',
  'GET /',
  'HEAD /',
  'GET /assets/*',
  'HEAD /assets/*',
]);

/** A concrete path for a route pattern (the guard answers before any parameter is validated). */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

/**
 * Sends a request line exactly as written: an HTTP client library would normalise the very
 * spellings (dot segments, absolute form, percent-encoding) these tests are about.
 */
function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (body !== undefined) {
      lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    }
    socket.on('connect', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
    });
  });
}

/** Ways of writing `/api/<rest>` that a router, a proxy or a URL parser may treat as that path. */
function disguises(port: number, rest: string): string[] {
  return [
    `/%61pi/${rest}`,
    `/%61%70%69/${rest}`,
    `/%2561pi/${rest}`,
    `//api/${rest}`,
    `///api/${rest}`,
    `/./api/${rest}`,
    `/x/../api/${rest}`,
    `/api/./${rest}`,
    `/%2e/api/${rest}`,
    `/api/${rest};x`,
    `/api;x/${rest}`,
    `/API/${rest}`,
    `/Api/${rest}`,
    `/api/${rest}/`,
    `/api/${rest}?x=1`,
    `http://127.0.0.1:${port}/api/${rest}`,
    `http://evil.example/api/${rest}`,
    `HTTP://127.0.0.1:${port}/%61pi/${rest}`,
  ];
}

describe('every route is guarded by the scope it lives in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers 401 without a key on every registered route except the public ones', async () => {
    const routes = t.app.registeredRoutes.filter((route) => route.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(50);
    const publicOnes = routes.filter((route) => PUBLIC_ROUTES.has(`${route.method} ${route.url}`));
    expect(publicOnes.map((route) => `${route.method} ${route.url}`).sort()).toEqual(
      [...PUBLIC_ROUTES].sort(),
    );
    for (const route of routes) {
      if (PUBLIC_ROUTES.has(`${route.method} ${route.url}`)) continue;
      expect(route.public, `${route.method} ${route.url}`).toBe(false);
      const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers unknown /api paths with 401 before 404', async () => {
    for (const url of ['/api', '/api/', '/api/nothing', '/api/apps/1/nothing']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(401);
      const known = await t.api({ url });
      expect(known.statusCode, url).toBe(404);
      expect(known.json().error.code).toBe('NOT_FOUND');
    }
  });
});

describe('disguised paths over the wire', () => {
  let t: TestApp;
  let port: number;
  let todoId: number;
  const count = async (url: string) => ((await t.api({ url })).json().data as unknown[]).length;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
    const todo = await t.api({
      method: 'POST',
      url: '/api/to_do_list',
      payload: { title: 'keep me', isCompleted: true },
    });
    todoId = todo.json().data.id;
  });
  afterAll(async () => t.close());

  it('never reach a handler or change data without the key', async () => {
    const requests: [string, string, string?][] = [
      ['GET', 'apps'],
      ['GET', 'to_do_list'],
      ['POST', 'to_do_list', JSON.stringify({ title: 'smuggled' })],
      ['POST', 'apps', JSON.stringify({ name: 'x', code: 'x', pipelineUrl: 'https://ci.example.com' })],
      ['DELETE', `to_do_list/${todoId}`],
      ['DELETE', 'to_do_list?completed=true'],
      ['POST', 'jobs/delete-completed-todos/run'],
      ['GET', 'jobs'],
    ];
    for (const [method, rest, body] of requests) {
      for (const target of disguises(port, rest)) {
        const res = await rawRequest(port, method, target, {}, body);
        expect([400, 401, 404], `${method} ${target} → ${res.status} ${res.body}`).toContain(res.status);
        expect(res.body).not.toContain('"success":true');
      }
    }
    expect(await count('/api/to_do_list')).toBe(1);
    expect(await count('/api/apps')).toBe(0);
    expect((await t.api({ url: `/api/to_do_list/${todoId}` })).statusCode).toBe(200);
  });

  it('are answered normally with the key (same route, same guard)', async () => {
    for (const target of [`/%61pi/apps`, `//api/apps`, `/api/apps/`, `http://127.0.0.1:${port}/api/apps`]) {
      const res = await rawRequest(port, 'GET', target, { 'x-api-key': TEST_KEY });
      expect(res.status, target).toBe(200);
    }
  });

  it('protect /metrics and /docs the same way', async () => {
    for (const target of ['/%6detrics', '/metrics/', '//metrics', '/%64ocs/', '/docs/json', '//docs/json']) {
      const res = await rawRequest(port, 'GET', target);
      expect([401, 404], `${target} → ${res.status}`).toContain(res.status);
      expect(res.body).not.toContain('dashboard_');
      expect(res.body).not.toContain('"openapi"');
    }
  });
});

describe('disguised paths while the address is blocked, and under the rate limit', () => {
  it('are refused with 429 while the address is blocked, even with the right key', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as net.AddressInfo).port;
      for (let attempt = 0; attempt < 4; attempt++) {
        await rawRequest(port, 'GET', '/api/apps', { 'x-api-key': 'wrong' });
      }
      for (const target of [...disguises(port, 'apps'), '/%6detrics', '/docs/json', '/nothing']) {
        const res = await rawRequest(port, 'GET', target, { 'x-api-key': TEST_KEY });
        expect(res.status, `${target} → ${res.status} ${res.body}`).toBe(429);
      }
      const post = await rawRequest(
        port,
        'POST',
        '/%61pi/to_do_list',
        { 'x-api-key': TEST_KEY },
        JSON.stringify({ title: 'while blocked' }),
      );
      expect(post.status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('count towards the general rate limit like the plain path', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as net.AddressInfo).port;
      const key = { 'x-api-key': TEST_KEY };
      for (const target of ['/api/apps', '/%61pi/apps', `http://127.0.0.1:${port}/api/apps`]) {
        expect((await rawRequest(port, 'GET', target, key)).status, target).toBe(200);
      }
      for (const target of ['/%61pi/apps', '//api/apps', '/api/apps/']) {
        const res = await rawRequest(port, 'GET', target, key);
        expect(res.status, target).toBe(429);
        expect(res.body).toContain('TOO_MANY_REQUESTS');
      }
    } finally {
      await t.close();
    }
  });
});
