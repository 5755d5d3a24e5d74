import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../config/config.js';
import { createKeyMatcher } from './api-key.js';
import type { AttemptStore } from './attempt-store.js';

export const UNAUTHORIZED_BODY = {
  success: false,
  error: 'Invalid or missing API key',
  code: 'UNAUTHORIZED',
} as const;

const PUBLIC_API_ROUTES = new Set(['POST /api/auth/validate']);
const SLOWDOWN_STEP_MS = 500;
const SLOWDOWN_CAP_MS = 5000;

export function isApiPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/api' || path.startsWith('/api/');
}

export interface AuthGuard {
  keyMatches(presented: string): boolean;
  /**
   * Counts a failed attempt from the request's IP and answers it: 429 when this failure blocks
   * the IP, otherwise the caller's own failure reply (after the production slow-down).
   */
  handleFailure(
    request: FastifyRequest,
    reply: FastifyReply,
    sendFailure: () => FastifyReply,
  ): Promise<FastifyReply>;
  clearFailures(request: FastifyRequest): Promise<void>;
}

/**
 * Key check and brute-force protection for every `/api` path (decisions §3). A missing header is a
 * plain 401 and is not counted; a wrong key is counted; the 4th failure inside the window blocks.
 */
export function registerAuthGuard(app: FastifyInstance, config: Config, store: AttemptStore): AuthGuard {
  const keyMatches = createKeyMatcher(config.apiKey);
  const { bruteForceMaxAttempts } = config.auth;

  const sendBlocked = (reply: FastifyReply, blockedUntil: number, now: number) => {
    const retryAfter = Math.max(1, Math.ceil((blockedUntil - now) / 1000));
    const minutes = Math.max(1, Math.ceil(retryAfter / 60));
    return reply
      .status(429)
      .headers({
        'retry-after': String(retryAfter),
        'x-ratelimit-limit': String(bruteForceMaxAttempts),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(retryAfter),
      })
      .send({
        error: `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        retryAfter,
      });
  };

  const guard: AuthGuard = {
    keyMatches,
    async handleFailure(request, reply, sendFailure) {
      const now = Date.now();
      let outcome;
      try {
        outcome = await store.recordFailure(request.ip, now);
      } catch (err) {
        // The shared store being down must not take the API down with it: answer unblocked.
        request.log.warn({ err }, 'attempt store unavailable; failure not counted');
        return sendFailure();
      }
      if (outcome.blockedUntil !== undefined) {
        request.log.warn({ ip: request.ip }, 'IP blocked after repeated failed authentication');
        return sendBlocked(reply, outcome.blockedUntil, now);
      }
      if (config.isProduction && outcome.failures > 1) {
        await sleep(Math.min(SLOWDOWN_CAP_MS, SLOWDOWN_STEP_MS * (outcome.failures - 1)));
      }
      return sendFailure();
    },
    async clearFailures(request) {
      try {
        await store.clear(request.ip);
      } catch (err) {
        request.log.warn({ err }, 'attempt store unavailable; failures not cleared');
      }
    },
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || !isApiPath(request.url)) return;
    const now = Date.now();
    let blockedUntil: number | undefined;
    try {
      blockedUntil = await store.blockedUntil(request.ip, now);
    } catch (err) {
      request.log.warn({ err }, 'attempt store unavailable; block check skipped');
    }
    if (blockedUntil !== undefined) return sendBlocked(reply, blockedUntil, now);

    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (PUBLIC_API_ROUTES.has(route)) return;

    const presented = request.headers['x-api-key'];
    if (presented === undefined || presented === '') {
      return reply.status(401).send(UNAUTHORIZED_BODY);
    }
    if (typeof presented === 'string' && keyMatches(presented)) return;
    return guard.handleFailure(request, reply, () => reply.status(401).send(UNAUTHORIZED_BODY));
  });

  return guard;
}
