import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CorsPolicy, registerCors } from './cors.js';

// `registerCors` replaces the `@fastify/cors` plugin on the request path; the plugin stays the
// reference. Both apps get the same routes (one behind a key check, as `/api` is) and the same
// requests, and must answer with the same status, headers (in order) and body.

const BEFORE = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };
const BASE: Omit<CorsPolicy, 'origin'> = {
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'X-API-Key', 'Authorization', 'X-Request-Id'],
  exposedHeaders: ['Retry-After', 'X-Request-Id'],
  maxAgeSeconds: 600,
};
const POLICIES: Array<[string, CorsPolicy['origin']]> = [
  ['development (any origin)', true],
  ['a list of origins', ['http://a.test', 'http://b.test']],
  ['a list with *', ['http://a.test', '*']],
  ['an empty list', []],
];

function routes(app: FastifyInstance) {
  app.get('/thing', async () => ({ ok: true }));
  app.post('/thing', async (_request, reply) => reply.code(201).send({ created: true }));
  app.get('/vary', async (_request, reply) => reply.header('vary', 'Accept-Encoding').send('text'));
  void app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        if (request.headers['x-api-key'] !== 'key') await reply.code(401).send({ error: 'no key' });
      });
      scope.get('/x', async () => ({ secret: true }));
      scope.delete('/x', async () => ({ deleted: true }));
    },
    { prefix: '/api' },
  );
}

async function referenceApp(origin: CorsPolicy['origin']) {
  const app = Fastify();
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(BEFORE);
    done();
  });
  await app.register(cors, {
    origin: origin === true ? true : [...origin],
    methods: [...BASE.methods],
    allowedHeaders: [...BASE.allowedHeaders],
    exposedHeaders: [...BASE.exposedHeaders],
    maxAge: BASE.maxAgeSeconds,
  });
  routes(app);
  return app;
}

async function ourApp(origin: CorsPolicy['origin']) {
  const app = Fastify();
  registerCors(app, { ...BASE, origin }, BEFORE);
  routes(app);
  await app.ready();
  return app;
}

const ORIGINS = [undefined, '', 'http://a.test', 'http://b.test', 'http://evil.test', 'null'];
const REQUESTS = ORIGINS.flatMap((origin) =>
  [
    { method: 'GET', url: '/thing' },
    { method: 'POST', url: '/thing', payload: { a: 1 } },
    { method: 'GET', url: '/vary' },
    { method: 'GET', url: '/api/x' },
    { method: 'GET', url: '/api/x', key: true },
    { method: 'DELETE', url: '/api/x', key: true },
    { method: 'GET', url: '/missing' },
    { method: 'OPTIONS', url: '/thing' },
    { method: 'OPTIONS', url: '/api/x', preflightMethod: 'DELETE' },
    { method: 'OPTIONS', url: '/missing', preflightMethod: 'GET' },
    { method: 'OPTIONS', url: '/thing', preflightMethod: 'POST', preflightHeaders: 'x-api-key' },
  ].map((request) => ({ ...request, origin })),
);

type Case = (typeof REQUESTS)[number] & {
  preflightMethod?: string;
  preflightHeaders?: string;
  key?: boolean;
};

function describeCase(request: Case) {
  return `${request.method} ${request.url} origin=${String(request.origin)} preflight=${request.preflightMethod ?? '-'}${request.key ? ' +key' : ''}`;
}

async function answer(app: FastifyInstance, request: Case) {
  const headers: Record<string, string> = {};
  if (request.origin !== undefined) headers.origin = request.origin;
  if (request.preflightMethod) headers['access-control-request-method'] = request.preflightMethod;
  if (request.preflightHeaders) headers['access-control-request-headers'] = request.preflightHeaders;
  if (request.key) headers['x-api-key'] = 'key';
  const response = await app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers,
    ...('payload' in request ? { payload: request.payload } : {}),
  });
  const { date: _date, ...rest } = response.headers;
  return { status: response.statusCode, headers: Object.entries(rest), body: response.body };
}

describe.each(POLICIES)('CORS by hand, as @fastify/cors answers, with %s', (_name, origin) => {
  let reference: FastifyInstance;
  let ours: FastifyInstance;
  beforeAll(async () => {
    [reference, ours] = await Promise.all([referenceApp(origin), ourApp(origin)]);
  });
  afterAll(async () => Promise.all([reference.close(), ours.close()]));

  it('answers every request of the matrix identically', async () => {
    for (const request of REQUESTS as Case[]) {
      const [expected, actual] = await Promise.all([answer(reference, request), answer(ours, request)]);
      expect({ request: describeCase(request), ...actual }).toEqual({
        request: describeCase(request),
        ...expected,
      });
    }
  });
});

describe('CORS by hand', () => {
  it('answers a preflight before the key check and allows a listed origin only', async () => {
    const app = await ourApp(['http://a.test']);
    const preflight = await answer(app, {
      method: 'OPTIONS',
      url: '/api/x',
      origin: 'http://a.test',
      preflightMethod: 'DELETE',
    });
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': 'http://a.test',
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-max-age': '600',
      'content-length': '0',
      vary: 'Origin',
    });
    const stranger = await answer(app, { method: 'GET', url: '/thing', origin: 'http://evil.test' });
    expect(Object.fromEntries(stranger.headers)['access-control-allow-origin']).toBeUndefined();
    const bad = await answer(app, { method: 'OPTIONS', url: '/thing', origin: 'http://a.test' });
    expect(bad).toMatchObject({ status: 400, body: 'Invalid Preflight Request' });
    await app.close();
  });
});
