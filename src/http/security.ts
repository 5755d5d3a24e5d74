import cors from '@fastify/cors';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config/config.js';
import { TooManyRequestsError } from '../shared/errors.js';

const HELMET_OPTIONS: FastifyHelmetOptions = {
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

/** Our CORS policy: open in development, the configured origins in production. */
export function corsOptions(config: Config) {
  return {
    origin: config.isProduction ? [...config.corsOrigins] : true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'X-API-Key', 'Authorization', 'X-Request-Id'],
    exposedHeaders: [
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Request-Id',
    ],
    maxAge: 600,
  };
}

/**
 * Security headers (helmet) and CORS on every response, through the maintained plugins. A
 * preflight is answered by the CORS plugin's hook, before any key check.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, HELMET_OPTIONS);
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
    nameSpace: 'dashboard:ratelimit:',
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
