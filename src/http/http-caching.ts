import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preParsingHookHandler,
  RouteOptions,
} from 'fastify';
import { etagOf, matchesIfNoneMatch, type ReadTicket, type ResponseCache } from './response-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Opts a GET route into the serialized-response cache: the tables its answer is read from
     * (include the parents whose deletion cascades into them). A committed write to any of them,
     * in this process or another one, drops the cached answers.
     */
    responseCache?: { tables: readonly string[] };
  }
}

/** Browsers keep the answer but revalidate it each time (a matching ETag costs a 304). */
export const API_CACHE_CONTROL = 'private, no-cache';

type Hooks<T> = T | T[] | undefined;
const asArray = <T>(hooks: Hooks<T>): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

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

/**
 * Adds strong ETags (with 304 on a matching If-None-Match) to every GET route of `scope`, and the
 * response cache to the routes that declare `config.responseCache`. Registered before the routes
 * of the scope, after its guard and rate limiter: the cache is looked up in `preParsing`, which
 * runs after every `onRequest` hook, so a cached answer still passes the key check and the limit.
 */
export function registerHttpCaching(scope: FastifyInstance, cache: ResponseCache): void {
  const tickets = new WeakMap<FastifyRequest, ReadTicket>();

  const serveCached: preParsingHookHandler = (request, reply, payload, done) => {
    if (request.method !== 'GET') return done(null, payload);
    const entry = cache.get(request.url);
    if (!entry) {
      tickets.set(request, cache.ticket());
      return done(null, payload);
    }
    if (revalidated(request, reply, entry.etag)) void reply.send();
    else void reply.type(entry.contentType).send(entry.body);
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
      const entry = cache.store(request.url, ticket, { body: payload, contentType, tables });
      done(null, revalidated(request, reply, entry.etag) ? null : payload);
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
