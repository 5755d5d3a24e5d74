import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preParsingHookHandler,
  RouteOptions,
} from 'fastify';
import { LRUCache } from 'lru-cache';
import type { TableName } from '../../db/schema.js';
import { sharesCachedAnswers } from '../auth/route-access.js';
import {
  type CachedResponse,
  type ContentEncoding,
  etagOf,
  matchesIfNoneMatch,
  type ReadTicket,
  representationOf,
  type ResponseCache,
} from './response-cache.js';

/**
 * Opts a GET route into the serialized-response cache: the tables its answer is read from
 * (include the parents whose deletion cascades into them). A committed write to any of them,
 * in this process or another one, drops the cached answers.
 */
export interface CachedRead {
  tables: readonly TableName[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    responseCache?: CachedRead;
  }
}

/** Browsers keep the answer but revalidate it each time (a matching ETag costs a 304). */
export const API_CACHE_CONTROL = 'private, no-cache';

type Hooks<T> = T | T[] | undefined;
const asArray = <T>(hooks: Hooks<T>): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** Sets the validators; true (and 304) when If-None-Match names `etag`. */
function revalidated(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  void reply.header('etag', etag).header('cache-control', API_CACHE_CONTROL);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).removeHeader('content-type');
  return true;
}

/** ETag and revalidation for a GET answer that is not cached (computed from the body sent). */
const tagResponse: onSendHookHandler<unknown> = (request, reply, payload, done) => {
  if (
    request.method !== 'GET' ||
    reply.statusCode !== 200 ||
    reply.hasHeader('etag') ||
    (typeof payload !== 'string' && !Buffer.isBuffer(payload))
  ) {
    done(null, payload);
    return;
  }
  done(null, revalidated(request, reply, etagOf(payload)) ? null : payload);
};

// Clients send the same few Accept-Encoding values again and again (one per browser), so each
// is parsed once; the bound keeps odd values from growing it. `none`: nothing accepted (the cache
// holds no undefined).
const knownEncodings = new LRUCache<string, ContentEncoding | 'none'>({ max: 64 });

/** The encoding to send a cached answer in: brotli, else gzip, when the client accepts it. */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  let known = knownEncodings.get(acceptEncoding);
  if (known === undefined) {
    known = parseAcceptEncoding(acceptEncoding) ?? 'none';
    knownEncodings.set(acceptEncoding, known);
  }
  return known === 'none' ? undefined : known;
}

function parseAcceptEncoding(acceptEncoding: string): ContentEncoding | undefined {
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (!refused) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** `Vary` with Accept-Encoding added to what is there (CORS has put `Origin`). */
export function varyOnEncoding(vary: unknown): string {
  return typeof vary === 'string' && vary !== '' ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
}

/** Sends a cached answer in the representation the client accepts, under its own strong ETag. */
function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): Buffer | null {
  const chosen = representationOf(
    entry,
    preferredEncoding(request.headers['accept-encoding']),
    request.headers['if-none-match'],
  );
  void reply
    .header('vary', varyOnEncoding(reply.getHeader('vary')))
    .header('etag', chosen.etag)
    .header('cache-control', API_CACHE_CONTROL);
  if (chosen.status === 304) {
    void reply.code(304).removeHeader('content-type');
    return null;
  }
  void reply.type(entry.contentType);
  if (chosen.encoding) void reply.header('content-encoding', chosen.encoding);
  return chosen.body ?? null;
}

/**
 * Adds strong ETags (with 304 on a matching If-None-Match) to every GET route of `scope`, and the
 * response cache to the routes that declare `config.responseCache`. Registered before the routes
 * of the scope, after its guard and rate limiter: the cache is looked up in `preParsing`, which
 * runs after every `onRequest` hook, so a cached answer passes the same key check, limit,
 * headers, logging and metrics as any other answer of the scope, and the same scope check.
 */
export function registerHttpCaching(scope: FastifyInstance, cache: ResponseCache): void {
  const tickets = new WeakMap<FastifyRequest, ReadTicket>();

  const serveCached: preParsingHookHandler = (request, reply, payload, done) => {
    // The key guard has run (onRequest), so a cached answer only reaches a key whose scope admits
    // the route; a key that sees a narrower answer at the same URL neither reads nor fills it.
    if (request.method !== 'GET' || !sharesCachedAnswers(request.credential)) return done(null, payload);
    const entry = cache.get(request.url);
    if (!entry) {
      tickets.set(request, cache.ticket());
      return done(null, payload);
    }
    void reply.send(sendCached(request, reply, entry) ?? undefined);
  };

  const storeAnswer =
    (tables: readonly string[]): onSendHookHandler<unknown> =>
    (request, reply, payload, done) => {
      const ticket = tickets.get(request);
      if (ticket === undefined || reply.statusCode !== 200 || typeof payload !== 'string') {
        done(null, payload);
        return;
      }
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      const route = request.routeOptions.url ?? request.url;
      const entry = cache.store(request.url, ticket, { body: payload, contentType, tables, route });
      done(null, sendCached(request, reply, entry));
    };

  scope.addHook('onRoute', (route: RouteOptions) => {
    if (![route.method].flat().includes('GET')) return;
    const tables = route.config?.responseCache?.tables;
    const onSend = asArray(route.onSend as Hooks<onSendHookHandler>);
    if (tables && cache.enabled) {
      route.preParsing = [...asArray(route.preParsing as Hooks<preParsingHookHandler>), serveCached];
      // The store hook tags the answer itself; the generic one then sees the ETag and skips.
      route.onSend = [...onSend, storeAnswer(tables), tagResponse];
    } else {
      route.onSend = [...onSend, tagResponse];
    }
  });
}
