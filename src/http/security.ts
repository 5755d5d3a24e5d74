import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config, RouteRateLimit } from '../config/config.js';
import { isApiPath } from './auth/auth-guard.js';
import { TooManyRequestsError } from './errors.js';

/** Security headers on every response, and CORS (open in development, a list in production). */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    global: true,
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
  });
  await app.register(cors, {
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
  });
}

/** The general per-IP limit on `/api`, with per-route overrides from configuration. */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  redis: Redis | undefined,
): Promise<void> {
  if (config.rateLimit.max === 0) return;
  const overrideFor = (request: FastifyRequest): RouteRateLimit | undefined =>
    config.rateLimit.routes[`${request.method} ${request.routeOptions.url ?? ''}`];

  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    ...(redis ? { redis } : {}),
    nameSpace: 'dashboard:ratelimit:',
    skipOnError: true,
    allowList: (request) => request.method === 'OPTIONS' || !isApiPath(request.url),
    keyGenerator: (request) => {
      const override = overrideFor(request);
      return override ? `${request.ip}|${request.method} ${request.routeOptions.url ?? ''}` : request.ip;
    },
    max: (request) => Promise.resolve(overrideFor(request)?.max ?? config.rateLimit.max),
    timeWindow: (request) => Promise.resolve(overrideFor(request)?.windowMs ?? config.rateLimit.windowMs),
    errorResponseBuilder: (_request, context) => {
      const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000));
      return new TooManyRequestsError(`Rate limit exceeded, retry in ${retryAfter} seconds`, retryAfter);
    },
  });
}
