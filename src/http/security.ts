import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Redis } from 'ioredis';
import type { Config } from '../config/config.js';
import { TooManyRequestsError } from '../shared/errors.js';
import { corsHeaders, type CorsPolicy, registerCors } from './cors.js';

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
 * The headers helmet sets, computed once. The Fastify wrapper of helmet rebuilds every helmet
 * middleware (CSP parsing included) on each request, which was a fifth of the CPU time of
 * `GET /health` in a profile; our headers never vary per request (no CSP nonces), so helmet runs
 * once at start against a recording response and the result is replayed.
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/** Our CORS policy: open in development, the configured origins in production. */
export function corsPolicy(config: Config): CorsPolicy {
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
    maxAgeSeconds: 600,
  };
}

/**
 * The headers every answer to a request without `Origin` carries before its route adds its own:
 * helmet's, then CORS's (`Vary: Origin`, or `*` to everyone when any origin is allowed, and the
 * exposed headers). The front door sends exactly these; a test compares them with what Fastify
 * sends.
 */
export function headersWithoutOrigin(config: Config): Readonly<Record<string, string>> {
  return { ...SECURITY_HEADERS, ...corsHeaders(corsPolicy(config)).withoutOrigin };
}

const SECURITY_HEADERS = helmetHeaders();

/** Security headers on every response, and CORS (open in development, a list in production). */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  registerCors(app, corsPolicy(config), SECURITY_HEADERS);
}

/**
 * The general per-IP limit with per-route overrides from configuration. Registered inside the
 * `/api` scope, it covers exactly the routes of that scope (the plugin hooks every route added
 * to the scope after it), so no URL matching decides what is limited. Limits are plain numbers
 * fixed per route when the route is added (an override becomes the route's own limit, counted
 * apart), and the key is the address: no per-request lookups or awaited option functions, which
 * made the limiter cost about as much as the rest of a cached read.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  config: Config,
  counting: { redis: Redis } | { memory: FastifyRateLimitStoreCtor },
): Promise<void> {
  if (config.rateLimit.max === 0) return;
  // Added before the plugin, so the plugin's own route hook already sees the override.
  scope.addHook('onRoute', (route) => {
    const override = [route.method]
      .flat()
      .map((method) => config.rateLimit.routes[`${method} ${route.url}`])
      .find((limit) => limit !== undefined);
    if (override) {
      route.config = { ...route.config, rateLimit: { max: override.max, timeWindow: override.windowMs } };
    }
  });

  await scope.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    ...('redis' in counting ? { redis: counting.redis } : { store: counting.memory }),
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
}
