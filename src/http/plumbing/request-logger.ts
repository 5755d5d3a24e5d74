import type { FastifyBaseLogger } from 'fastify';
import { stdSerializers } from 'pino';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger, made only when the request logs something its level lets through. Fastify
 * gives every request a child logger carrying its id; building a pino child (bindings serialised
 * to JSON, a new object with its own level methods) took about 2.5 µs of each request's CPU time,
 * while most requests of a process running at `warn` never log a line. Calls at disabled levels
 * cost nothing; the first enabled call creates the real child, so lines carry the request id as
 * before.
 */
class DeferredChildLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  #log(level: Level, args: LogArgs): void {
    const logger = this.#child ?? (levelEnabled(this.parent, level) ? this.#real() : undefined);
    logger?.[level](...args);
  }

  fatal(...args: LogArgs) {
    this.#log('fatal', args);
  }
  error(...args: LogArgs) {
    this.#log('error', args);
  }
  warn(...args: LogArgs) {
    this.#log('warn', args);
  }
  info(...args: LogArgs) {
    this.#log('info', args);
  }
  debug(...args: LogArgs) {
    this.#log('debug', args);
  }
  trace(...args: LogArgs) {
    this.#log('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/** pino answers `isLevelEnabled`; another logger is assumed to want every line. */
export function levelEnabled(logger: FastifyBaseLogger, level: Level): boolean {
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return check === undefined || check.call(logger, level);
}

/** Fastify's `childLoggerFactory`: a deferred child, or a real one when the route sets its own level. */
export function deferredChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined)
    return logger.child(bindings, options);
  return new DeferredChildLogger(logger, bindings, options);
}

/** Query parameters whose values are secrets whatever the route (compared case-insensitively). */
const SECRET_QUERY_VALUE = /([?&;](?:key|token|secret|password|api_key|x-api-key)=)[^&#;\s"']*/gi;

/**
 * The text with the values of secret-named query parameters (`?key=…`, `&token=…`) replaced. A
 * client that puts its key in the query string must not find it in the logs.
 */
export function maskSecretQuery(text: string): string {
  return text.includes('=') ? text.replace(SECRET_QUERY_VALUE, '$1[redacted]') : text;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * pino options that mask secret query values in every URL a line can carry: the request of the
 * request logs, an `url` field, an error's message and stack (Fastify puts URLs in some of its
 * errors), and the message text itself.
 */
export const maskedLogSerializers = {
  serializers: {
    req: (req: LoggedRequest) => ({
      method: req.method,
      url: typeof req.url === 'string' ? maskSecretQuery(req.url) : req.url,
      version: req.headers?.['accept-version'],
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
    url: (url: unknown) => (typeof url === 'string' ? maskSecretQuery(url) : url),
    err: (error: Error) => {
      const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
      for (const field of ['message', 'stack'] as const) {
        const value = serialized[field];
        if (typeof value === 'string') serialized[field] = maskSecretQuery(value);
      }
      return serialized;
    },
  },
  hooks: {
    logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
      method.apply(
        this,
        args.map((arg) => (typeof arg === 'string' ? maskSecretQuery(arg) : arg)),
      );
    },
  },
};
