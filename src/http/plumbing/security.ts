import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/config.js';
import { TooManyRequestsError } from '../../shared/errors.js';

const HELMET_OPTIONS: HelmetOptions = {
  // The interactive docs page needs inline styles/scripts; the JSON API is unaffected.
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      connectSrc: ["'self'"],
      // Helmet's default would make browsers fetch the web UI's own scripts over https, which
      // breaks the UI of a service reached over plain http (an internal host, a container port).
      upgradeInsecureRequests: null,
    },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

/**
 * Our CORS policy: open in development, the configured origins in production. The lists are
 * given to the plugin joined, as it would otherwise join them again on every request.
 */
export function corsOptions(config: Config) {
  return {
    origin: config.isProduction ? [...config.corsOrigins] : true,
    methods: 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    allowedHeaders: 'Content-Type, X-API-Key, Authorization, X-Request-Id',
    exposedHeaders: 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id',
    maxAge: 600,
  };
}

/**
 * The fields helmet's middleware sets for our options, read once from a response that is never
 * sent. Our policy has no part computed per request (no CSP nonce functions), so every request
 * would get exactly these; a policy that adds one must call the middleware per request instead.
 */
export function securityHeaderFields(): Readonly<Record<string, string>> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(HELMET_OPTIONS)(response.req, response, (error?: unknown) => {
    // Helmet hands its errors over as Error objects.
    if (error instanceof Error) throw error;
  });
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.getHeaders())) fields[name] = String(value);
  return Object.freeze(fields);
}

/**
 * Security headers (helmet) and CORS on every response. A preflight is answered by the CORS
 * plugin's hook, before any key check.
 *
 * The `helmet` package itself rather than `@fastify/helmet`, for a measured reason
 * (docs/performance.md): the plugin calls `helmet(options)` again on every request (CSP
 * directives parsed and validated each time) from two hooks, one of them async, which cost
 * /health 65k of its 267k instructions. Helmet's fields are computed once at start-up and put on
 * each reply with `reply.headers`, which measured 22k instructions a request cheaper again than
 * calling the built middleware on the raw response. They are the plugin's fields, and as reply
 * fields a route's hook reads and removes them with `reply.getHeader` and `reply.removeHeader`.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const fields = securityHeaderFields();
  app.addHook('onRequest', function securityHeaders(_request, reply, done) {
    void reply.headers(fields);
    done();
  });
  await app.register(cors, corsOptions(config));
}

/**
 * The per-address limit of the `/api` scope, with per-route overrides from configuration. It is
 * one `onRequest` hook of the scope, added before the key guard, so every request the router puts
 * in the scope is counted against its address whatever its answer: refused for a missing key,
 * blocked, unknown path (the scope's not-found handler runs the scope's hooks too) or served. A
 * route with an override is counted by its own limiter instead of the general one. Counting uses
 * the plugin's own stores: in memory, or shared through Redis when the process has it.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  config: Config,
  redis: Redis | null,
): Promise<void> {
  if (config.rateLimit.max === 0) return;
  await scope.register(rateLimit, {
    global: false,
    ...(redis ? { redis } : {}),
    // Under REDIS_NAMESPACE like every other key, so deployments sharing a Redis count apart.
    nameSpace: `${config.redisNamespace}dashboard:ratelimit:`,
    skipOnError: true,
    keyGenerator: (request) => request.ip,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    errorResponseBuilder: (_request, context) => {
      const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000));
      return new TooManyRequestsError(`Rate limit exceeded, retry in ${retryAfter} seconds`, retryAfter);
    },
  });
  const general = scope.rateLimit();
  const overrides = new Map<string, onRequestHookHandler>();
  for (const [route, limit] of Object.entries(config.rateLimit.routes)) {
    overrides.set(
      route,
      scope.rateLimit({
        max: limit.max,
        timeWindow: limit.windowMs,
        // Counted apart from the general limit and from other overridden routes.
        keyGenerator: (request) => `${route}:${request.ip}`,
      }),
    );
  }
  const limiterOf = (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (route === undefined) return general;
    // A HEAD is answered by its GET route, so it takes that route's override too.
    const override =
      overrides.get(`${request.method} ${route}`) ??
      (request.method === 'HEAD' ? overrides.get(`GET ${route}`) : undefined);
    return override ?? general;
  };
  scope.addHook('onRequest', function countRequest(this: FastifyInstance, request, reply) {
    const limiter = limiterOf(request) as (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    return limiter.call(this, request, reply);
  });
}
