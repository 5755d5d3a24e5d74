import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FrontDoorResponse, headerBlock } from './header-block.js';

/**
 * Our CORS policy: any origin in development (`true`), the configured origins in production (a
 * `*` among them allows every origin).
 */
export interface CorsPolicy {
  origin: true | readonly string[];
  methods: readonly string[];
  allowedHeaders: readonly string[];
  exposedHeaders: readonly string[];
  maxAgeSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the CORS hook on a valid preflight, so the catch-all `OPTIONS` route answers it. */
    corsPreflightEnabled: boolean;
  }
}

/**
 * The CORS answers, fixed per policy. These are the headers (names, values and order) that the
 * `@fastify/cors` plugin sends for this policy; `cors.test.ts` holds the two equal over a matrix
 * of requests and policies.
 */
export function corsHeaders(policy: CorsPolicy) {
  const anyOrigin = policy.origin !== true && policy.origin.includes('*');
  // Unless every origin is allowed, the allowed origin depends on the request: caches key on it.
  const vary: Record<string, string> = anyOrigin ? {} : { vary: 'Origin' };
  const expose = { 'access-control-expose-headers': policy.exposedHeaders.join(', ') };
  return {
    anyOrigin,
    vary,
    /** Every answer to a request without `Origin` that is not a preflight. */
    withoutOrigin: anyOrigin ? { 'access-control-allow-origin': '*', ...expose } : { ...vary, ...expose },
    expose,
    preflight: {
      'access-control-allow-methods': policy.methods.join(', '),
      'access-control-allow-headers': policy.allowedHeaders.join(', '),
      'access-control-max-age': String(policy.maxAgeSeconds),
    },
  };
}

/**
 * CORS on every route, by hand instead of through `@fastify/cors`. The plugin copies its whole
 * options object and builds closures on every request, about 5 % of the instructions of a
 * `POST /api/to_do_list`; our policy is fixed at start, so each request only looks at its
 * `Origin` and sets precomputed headers. `beforeCors` are headers set first on every answer
 * (the security headers), in the same single call.
 *
 * As with the plugin: a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
 * is answered here, before any key check, with 204; an `OPTIONS` missing either is refused with
 * 400 `Invalid Preflight Request`; an origin not allowed gets no `Access-Control-Allow-Origin`.
 */
export function registerCors(
  app: FastifyInstance,
  policy: CorsPolicy,
  beforeCors: Readonly<Record<string, string>>,
): void {
  const headers = corsHeaders(policy);
  const allowed = policy.origin === true ? undefined : new Set(policy.origin);
  const plain = { ...beforeCors, ...headers.withoutOrigin };
  const varyFirst = { ...beforeCors, ...headers.vary };
  // Over HTTP the fixed fields go out as one block joined at start-up (header-block.ts); `Vary`
  // stays a reply header, since caching code adds to it. `inject` replies take the plain path.
  const { vary: plainVary, ...fixed }: Record<string, string> = plain;
  const fixedBlock = headerBlock(fixed);
  const afterBlock = plainVary === undefined ? undefined : { vary: plainVary };

  const allowOrigin = (origin: string | undefined): string | undefined => {
    if (headers.anyOrigin) return '*';
    if (!origin) return undefined;
    return allowed === undefined || allowed.has(origin) ? origin : undefined;
  };

  app.decorateRequest('corsPreflightEnabled', false);
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const origin = request.headers.origin;
    const preflight = request.raw.method === 'OPTIONS';
    if (origin === undefined && !preflight) {
      const raw = reply.raw;
      if (raw instanceof FrontDoorResponse && raw.deferFixedFields(fixedBlock)) {
        if (afterBlock) void reply.headers(afterBlock);
      } else {
        void reply.headers(plain);
      }
      done();
      return;
    }
    void reply.headers(varyFirst);
    const allowedOrigin = allowOrigin(origin);
    if (allowedOrigin !== undefined) void reply.header('access-control-allow-origin', allowedOrigin);
    void reply.headers(headers.expose);
    if (!preflight) {
      done();
      return;
    }
    if (!origin || !request.headers['access-control-request-method']) {
      void reply.code(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    request.corsPreflightEnabled = true;
    void reply.headers(headers.preflight).code(204).header('content-length', '0').send();
  });

  // Lets Fastify route a preflight to any path; the hook above has already answered it.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    if (!request.corsPreflightEnabled) {
      reply.callNotFound();
      return;
    }
    void reply.send();
  });
}
