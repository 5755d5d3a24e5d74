import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../config/config.js';
import {
  type Credential,
  type KeyLookup,
  type KeyResolver,
  SERVICE_KEY_CREDENTIAL,
} from '../../shared/credentials.js';
import { createKeyMatcher } from './api-key.js';
import type { AttemptStore } from './attempt-store.js';
import { scopeAllows, sendForbidden } from './route-access.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers without a key (the key check itself). It still belongs to its protected
     * scope, so a blocked address is refused there like everywhere else in the scope.
     */
    public?: boolean;
  }
}

export const UNAUTHORIZED_BODY = {
  success: false,
  error: 'Invalid or missing API key',
  code: 'UNAUTHORIZED',
} as const;

const SLOWDOWN_STEP_MS = 500;
const SLOWDOWN_CAP_MS = 5000;

/** Where a protected scope accepts the key besides the `x-api-key` header. */
export interface KeySources {
  /** `Authorization: Bearer <key>` (Prometheus scrapers). */
  bearer?: boolean;
  /**
   * `Authorization: Basic …` with the key as password (or as user name when the password is
   * empty), announced with a `WWW-Authenticate` challenge of this realm so a browser asks for it.
   */
  basicRealm?: string;
}

export interface AuthGuard {
  readonly keyMatches: (presented: string) => boolean;
  /**
   * What a presented key is: API_SECURITY_KEY (an admin credential), a key made through the API
   * (valid, or revoked/expired), or unknown.
   */
  identify(presented: string): KeyLookup | Promise<KeyLookup>;
  /** Failed attempts the request's address may still make before the next one blocks it. */
  attemptsRemaining(request: FastifyRequest): Promise<number>;
  /**
   * The `onRequest` hook of a protected scope: 429 while the address is blocked, then (unless the
   * route is public) 401 without a usable key, and 403 for a valid key whose scope the route's
   * `access` does not admit. It is registered on the scope, so it runs for exactly the routes the
   * router sends there, whatever the spelling of the request's path; the route itself says which
   * scopes it admits, never its URL.
   */
  protect(sources?: KeySources): onRequestHookHandler;
  /** 429 while the address is blocked; resolves undefined (nothing sent) otherwise. */
  refuseIfBlocked(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /**
   * Counts a failed attempt from the request's IP and answers it: 429 when this failure blocks
   * the IP, otherwise the caller's own failure reply (after the production slow-down), told how
   * many more failures the IP may make before the next one blocks it.
   */
  handleFailure(
    request: FastifyRequest,
    reply: FastifyReply,
    sendFailure: (attemptsRemaining: number) => FastifyReply,
  ): Promise<FastifyReply>;
  clearFailures(request: FastifyRequest): Promise<void>;
}

/** The key a request presents through the sources a scope accepts; undefined when none. */
function presentedKey(request: FastifyRequest, sources: KeySources): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = request.headers.authorization ?? '';
  if (sources.bearer) {
    const bearer = /^Bearer\s+(\S.*)$/i.exec(authorization)?.[1];
    if (bearer !== undefined) return bearer.trim();
  }
  if (sources.basicRealm !== undefined) {
    const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization)?.[1];
    if (encoded !== undefined) {
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const user = colon === -1 ? decoded : decoded.slice(0, colon);
      const password = colon === -1 ? '' : decoded.slice(colon + 1);
      const key = password !== '' ? password : user;
      if (key !== '') return key;
    }
  }
  return undefined;
}

/** Applies `next` to a value now, or once it resolves when it is a promise. */
function settle<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

const SERVICE_KEY: KeyLookup = Object.freeze({ kind: 'valid', credential: SERVICE_KEY_CREDENTIAL });
const UNKNOWN_KEY: KeyLookup = Object.freeze({ kind: 'unknown' });

/**
 * Key check and brute-force protection (see docs/contract-notes.md, "Authentication"). A request
 * without any key is a plain 401 and is not counted; a wrong key is counted; the failure after
 * `BRUTE_FORCE_MAX_ATTEMPTS` inside the window blocks the address.
 *
 * `keys` finds the keys made through the API; without it only API_SECURITY_KEY is accepted.
 * A key nobody knows is a failed attempt (counted towards the block); a revoked or expired key is
 * refused with the same 401 but not counted, as presenting one is no guess; a valid key outside
 * its scope is a 403 and not a failure either.
 */
export function createAuthGuard(config: Config, store: AttemptStore, keys?: KeyResolver): AuthGuard {
  const keyMatches = createKeyMatcher(config.apiKey);
  const { bruteForceMaxAttempts } = config.auth;
  const identify = (presented: string): KeyLookup | Promise<KeyLookup> => {
    if (keyMatches(presented)) return SERVICE_KEY;
    return keys ? keys.resolve(presented) : UNKNOWN_KEY;
  };

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

  const sendUnauthorized = (reply: FastifyReply, sources: KeySources) => {
    if (sources.basicRealm !== undefined) {
      void reply.header('www-authenticate', `Basic realm="${sources.basicRealm}", charset="UTF-8"`);
    }
    return reply.status(401).send(UNAUTHORIZED_BODY);
  };

  /** The block on the request's address; a store that cannot answer counts as no block. */
  const blockCheck = (request: FastifyRequest, now: number) => {
    const skip = (err: unknown) => {
      request.log.warn({ err }, 'attempt store unavailable; block check skipped');
      return undefined;
    };
    try {
      const answer = store.blockedUntil(request.ip, now);
      return answer instanceof Promise ? answer.catch(skip) : answer;
    } catch (err) {
      return skip(err);
    }
  };

  const guard: AuthGuard = {
    keyMatches,
    identify,

    async attemptsRemaining(request) {
      try {
        const failures = await store.failures(request.ip, Date.now());
        return Math.max(0, bruteForceMaxAttempts - failures);
      } catch (err) {
        request.log.warn({ err }, 'attempt store unavailable; failures not read');
        return bruteForceMaxAttempts;
      }
    },

    async refuseIfBlocked(request, reply) {
      const now = Date.now();
      return settle(blockCheck(request, now), (blockedUntil) =>
        blockedUntil === undefined ? undefined : sendBlocked(reply, blockedUntil, now),
      );
    },

    protect(sources = {}) {
      // Callback style, and synchronous while the attempt store and the key lookup answer from
      // memory: this hook runs on every request of the scope, and each awaited step would cost a
      // promise and a trip through the microtask queue.
      return (request, reply, done) => {
        const now = Date.now();
        const fail = (error: unknown) => done(error as Error);
        const admit = (credential: Credential) => {
          request.credential = credential;
          // Refused by scope: the key is good, so this is no failed attempt (and no use either:
          // a refused request changes nothing, `lastUsedAt` included).
          // An unknown path has no data to guard: any valid key gets its plain 404.
          if (!request.is404 && !scopeAllows(credential, request.routeOptions.config.access)) {
            return void sendForbidden(request, reply, credential);
          }
          keys?.used(credential);
          done();
        };
        const answer = (lookup: KeyLookup) => {
          if (lookup.kind === 'valid') return admit(lookup.credential);
          if (lookup.kind === 'inactive') return void sendUnauthorized(reply, sources);
          guard.handleFailure(request, reply, () => sendUnauthorized(reply, sources)).catch(fail);
        };
        const checkKey = (blockedUntil: number | undefined) => {
          if (blockedUntil !== undefined) return void sendBlocked(reply, blockedUntil, now);
          if (request.routeOptions.config.public === true) return done();
          const presented = presentedKey(request, sources);
          if (presented === undefined) return void sendUnauthorized(reply, sources);
          const found = settle(identify(presented), answer);
          if (found instanceof Promise) found.catch(fail);
        };
        const checked = settle(blockCheck(request, now), checkKey);
        if (checked instanceof Promise) checked.catch(fail);
      };
    },

    async handleFailure(request, reply, sendFailure) {
      const now = Date.now();
      let outcome;
      try {
        outcome = await store.recordFailure(request.ip, now);
      } catch (err) {
        // The shared store being down must not take the API down with it: answer unblocked.
        request.log.warn({ err }, 'attempt store unavailable; failure not counted');
        // Nothing could be counted, so nothing is known to be used up.
        return sendFailure(bruteForceMaxAttempts);
      }
      if (outcome.blockedUntil !== undefined) {
        request.log.warn({ ip: request.ip }, 'IP blocked after repeated failed authentication');
        return sendBlocked(reply, outcome.blockedUntil, now);
      }
      if (config.isProduction && outcome.failures > 1) {
        await sleep(Math.min(SLOWDOWN_CAP_MS, SLOWDOWN_STEP_MS * (outcome.failures - 1)));
      }
      return sendFailure(Math.max(0, bruteForceMaxAttempts - outcome.failures));
    },

    async clearFailures(request) {
      try {
        await store.clear(request.ip);
      } catch (err) {
        request.log.warn({ err }, 'attempt store unavailable; failures not cleared');
      }
    },
  };
  return guard;
}
