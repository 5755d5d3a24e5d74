import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { FrontDoorResponse, type HeaderBlock, headerBlock } from './header-block.js';
import { type HealthAnswer, healthJson } from '../modules/health/health.check.js';
import { API_CACHE_CONTROL, preferredEncoding, varyOnEncoding } from './http-caching.js';
import type { Metrics } from './metrics.js';
import type { RateLimitGate } from './rate-limit-store.js';
import { requestIdFrom } from './request-id.js';
import { levelEnabled } from './request-logger.js';
import { matchesIfNoneMatch, representationOf, type ResponseCache } from './response-cache.js';

/**
 * The front door answers the two kinds of request that dominate a running dashboard (pollers of
 * `GET /health`, and the web UI re-reading lists the response cache already holds) before Fastify
 * builds its request, reply and hook chain: on a 2-core machine that chain cost more than the
 * answer itself (see docs/front-door.md). It never refuses anything: every request
 * it is not sure to answer exactly as Fastify would (another method, an `Origin`, a body, a
 * missing or wrong key, a blocked address, a rate-limited scope, an unknown URL, a closing
 * server) goes on to Fastify untouched, and its answers are built from the same parts Fastify's
 * are (headers, request id, health check, cached representation), which a test compares header
 * by header.
 */
export interface FrontDoorOptions {
  /** The headers every answer to a request without `Origin` carries (security, CORS). */
  baseHeaders: Readonly<Record<string, string>>;
  health: () => HealthAnswer | Promise<HealthAnswer>;
  cache: ResponseCache;
  keyMatches: (presented: string) => boolean;
  /**
   * The brute-force block on an address, when it is known at once (memory store). Without it,
   * cached `/api` answers are left to Fastify, whose hooks consult the shared store.
   */
  blockedUntilNow: ((ip: string, now: number) => number | undefined) | undefined;
  /**
   * The `/api` scope's rate limit: off, or counted in memory through this gate (shared with the
   * plugin's hook). Undefined when it is counted elsewhere (Redis): cached reads go to Fastify.
   */
  apiRateLimit: 'off' | RateLimitGate | undefined;
  /** Behind a trusted proxy the address comes from `X-Forwarded-For`: such requests go on. */
  trustProxy: boolean;
  metrics: Metrics;
  log: FastifyBaseLogger;
}

export interface FrontDoor {
  /** Fastify's `serverFactory`: a `node:http` server whose listener is the front door. */
  readonly serverFactory: (
    fastifyHandler: RequestListener,
    options: {
      http?: ServerOptions;
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
    },
  ) => Server;
  /** From now on every request goes to Fastify (which answers 503 while it closes). */
  close(): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function createFrontDoor(options: FrontDoorOptions): FrontDoor {
  const { cache, keyMatches, blockedUntilNow, metrics, log } = options;
  const logRequests = levelEnabled(log, 'info');
  const { apiRateLimit } = options;
  const apiShortcut = blockedUntilNow !== undefined && apiRateLimit !== undefined;
  const gate = apiRateLimit === 'off' ? undefined : apiRateLimit;
  const healthBlock = headerBlock({ ...options.baseHeaders, 'cache-control': 'no-cache' });
  const apiBlock = headerBlock({
    ...options.baseHeaders,
    vary: varyOnEncoding(options.baseHeaders.vary),
    'cache-control': API_CACHE_CONTROL,
  });
  let open = true;
  let lastHealthBody: HealthAnswer['body'] | undefined;
  let lastHealthJson = '';

  /** Requests whose answer could depend on more than their URL and key are Fastify's. */
  const passesThrough = (request: IncomingMessage) => {
    const { headers } = request;
    return (
      !open ||
      request.method !== 'GET' ||
      headers.origin !== undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      (options.trustProxy && headers['x-forwarded-for'] !== undefined)
    );
  };

  // The same two lines, with the same fields, Fastify logs for each request at `info`.
  const logIncoming = (request: IncomingMessage, reqId: string) => {
    log.info(
      {
        reqId,
        req: {
          method: request.method,
          url: request.url,
          host: request.headers.host,
          remoteAddress: request.socket.remoteAddress,
          remotePort: request.socket.remotePort,
        },
      },
      'incoming request',
    );
  };

  const finish = (
    response: ServerResponse,
    reqId: string,
    route: string,
    started: number,
    block: HeaderBlock,
    head: (string | number)[],
    statusCode: number,
    body: Buffer | string | undefined,
  ) => {
    (response as FrontDoorResponse).writeHeadWith(block, statusCode, head);
    response.end(body);
    const elapsedMs = performance.now() - started;
    metrics.observeHttp('GET', route, statusCode, elapsedMs / 1000);
    metrics.answeredAtFrontDoor();
    if (logRequests) log.info({ reqId, res: { statusCode }, responseTime: elapsedMs }, 'request completed');
  };

  const serveHealth = (request: IncomingMessage, response: ServerResponse): void | Promise<void> => {
    const started = performance.now();
    const reqId = requestIdFrom(request.headers['x-request-id']);
    if (logRequests) logIncoming(request, reqId);
    const send = ({ statusCode, etag, body }: HealthAnswer) => {
      const head: (string | number)[] = ['x-request-id', reqId, 'etag', etag];
      if (statusCode === 200 && matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
        return finish(response, reqId, '/health', started, healthBlock, head, 304, undefined);
      }
      // The health check shares one answer per millisecond; so does its JSON.
      if (body !== lastHealthBody) {
        lastHealthBody = body;
        lastHealthJson = healthJson(body);
      }
      const json = lastHealthJson;
      head.push('content-type', JSON_TYPE, 'content-length', Buffer.byteLength(json));
      finish(response, reqId, '/health', started, healthBlock, head, statusCode, json);
    };
    const answer = options.health();
    if (answer instanceof Promise) return answer.then(send);
    send(answer);
  };

  /** True when it answered from the response cache. */
  const servedFromCache = (request: IncomingMessage, response: ServerResponse): boolean => {
    const entry = cache.get(request.url ?? '');
    if (!entry) return false;
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || key === '' || !keyMatches(key)) return false;
    const started = performance.now();
    const address = request.socket.remoteAddress;
    if (address === undefined || blockedUntilNow!(address, Date.now()) !== undefined) return false;
    // Counted last: once counted, the request must be answered here (Fastify would count it again).
    const admitted = gate?.admit('GET', entry.route, address);
    if (gate && !admitted) return false;
    const reqId = requestIdFrom(request.headers['x-request-id']);
    if (logRequests) logIncoming(request, reqId);
    const chosen = representationOf(
      entry,
      preferredEncoding(request.headers['accept-encoding']),
      request.headers['if-none-match'],
    );
    const head: (string | number)[] = ['x-request-id', reqId, 'etag', chosen.etag];
    if (admitted) {
      head.push(
        'x-ratelimit-limit',
        admitted.limit,
        'x-ratelimit-remaining',
        admitted.remaining,
        'x-ratelimit-reset',
        admitted.resetSeconds,
      );
    }
    if (chosen.status === 200) {
      head.push('content-type', entry.contentType, 'content-length', chosen.body!.length);
      if (chosen.encoding) head.push('content-encoding', chosen.encoding);
    }
    finish(response, reqId, entry.route, started, apiBlock, head, chosen.status, chosen.body);
    return true;
  };

  const serve = (fastifyHandler: RequestListener, request: IncomingMessage, response: ServerResponse) => {
    if (passesThrough(request)) return fastifyHandler(request, response);
    if (request.url === '/health') {
      const answered = serveHealth(request, response);
      if (answered) answered.catch((error: unknown) => recover(fastifyHandler, request, response, error));
      return;
    }
    if (apiShortcut && servedFromCache(request, response)) return;
    fastifyHandler(request, response);
  };

  /** A failure of the front door itself must not take the process down: Fastify answers instead. */
  const recover = (
    fastifyHandler: RequestListener,
    request: IncomingMessage,
    response: ServerResponse,
    error: unknown,
  ) => {
    log.error({ err: error, url: request.url }, 'front door failed; the request goes to Fastify');
    if (!response.headersSent) fastifyHandler(request, response);
    else if (!response.writableEnded) response.destroy();
  };

  const listener =
    (fastifyHandler: RequestListener): RequestListener =>
    (request, response) => {
      try {
        serve(fastifyHandler, request, response);
      } catch (error) {
        recover(fastifyHandler, request, response, error);
      }
    };

  return {
    serverFactory: (fastifyHandler, serverOptions) => {
      // What Fastify applies to the server it makes itself when no factory is given.
      const server = createServer(
        // Node's response class plus `writeHeadWith`, for every response of the server.
        { ...serverOptions.http, ServerResponse: FrontDoorResponse as typeof ServerResponse },
        listener(fastifyHandler),
      );
      if (serverOptions.keepAliveTimeout !== undefined)
        server.keepAliveTimeout = serverOptions.keepAliveTimeout;
      if (serverOptions.requestTimeout !== undefined) server.requestTimeout = serverOptions.requestTimeout;
      if (serverOptions.connectionTimeout !== undefined) server.setTimeout(serverOptions.connectionTimeout);
      return server;
    },
    close() {
      open = false;
    },
  };
}
