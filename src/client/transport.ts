import {
  DashboardApiError,
  DashboardClientError,
  DashboardNetworkError,
  DashboardTimeoutError,
  retryAfterSeconds,
  toApiError,
} from './errors.js';

export interface TransportOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  apiKey: string;
  /** Time-out of one attempt in ms (default 10000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** First back-off delay in ms, doubled at each retry with jitter (default 250). */
  retryBaseDelayMs?: number;
  /**
   * Longest wait before a retry, in ms (default 30000). A `Retry-After` asking for longer is not
   * waited for: the 429/503 is thrown at once, with `retryAfterSeconds` set.
   */
  maxRetryDelayMs?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export type Query = Record<string, string | number | boolean | undefined>;

/** A body sent as it is (a report file) instead of as JSON. */
export interface RawBody {
  data: Uint8Array<ArrayBuffer>;
  contentType: string;
  contentEncoding?: string;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  rawBody?: RawBody;
  /** Leaves out the API key (public endpoints). */
  anonymous?: boolean;
  /**
   * Retry this request on 5xx and time-outs even though the method is not idempotent (the
   * server side makes a repeat harmless). GET, PUT and DELETE are always treated as idempotent.
   */
  idempotent?: boolean;
  /** Statuses returned to the caller instead of thrown (e.g. 503 of /health). */
  acceptStatuses?: readonly number[];
  signal?: AbortSignal;
}

export interface RawResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Statuses that say the request was refused before any effect, so a repeat is safe for any method. */
const REFUSED_STATUSES = new Set([429, 503]);

/**
 * fetch with the retry policy of the client. Written by hand (over undici's fetch) because the
 * usual retry wrappers either ignore `Retry-After`, or retry non-idempotent requests blindly.
 */
export function createTransport(options: TransportOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 3;
  const baseDelay = options.retryBaseDelayMs ?? 250;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;

  function urlOf(path: string, query: Query | undefined): string {
    const url = new URL(baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async function attempt(method: string, path: string, request: RequestOptions) {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (!request.anonymous) headers['x-api-key'] = options.apiKey;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (request.rawBody !== undefined) {
      headers['content-type'] = request.rawBody.contentType;
      if (request.rawBody.contentEncoding) headers['content-encoding'] = request.rawBody.contentEncoding;
      body = request.rawBody.data;
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    try {
      const response = await doFetch(urlOf(path, request.query), { method, headers, body, signal });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: parseBody(text) };
    } catch (error) {
      if (request.signal?.aborted) throw error;
      if (timeout.aborted) {
        throw new DashboardTimeoutError(timeoutMs, `${method} ${path} timed out after ${timeoutMs} ms`);
      }
      throw new DashboardNetworkError(`${method} ${path} failed: ${describe(error)}`, { cause: error });
    }
  }

  function delayFor(retry: number, retryAfter: number | undefined): number | undefined {
    if (retryAfter !== undefined) {
      const wanted = retryAfter * 1000;
      return wanted > maxDelay ? undefined : wanted;
    }
    const exponential = Math.min(maxDelay, baseDelay * 2 ** retry);
    return exponential / 2 + Math.random() * (exponential / 2);
  }

  async function request<T>(
    method: string,
    path: string,
    request: RequestOptions = {},
  ): Promise<RawResponse<T>> {
    const idempotent = request.idempotent ?? IDEMPOTENT_METHODS.has(method);
    for (let retry = 0; ; retry++) {
      let failure: DashboardClientError;
      let retryAfter: number | undefined;
      try {
        const response = await attempt(method, path, request);
        if (response.status < 400 || request.acceptStatuses?.includes(response.status)) {
          return response as RawResponse<T>;
        }
        failure = toApiError(response.status, response.body, response.headers, method, path);
        const retryable = REFUSED_STATUSES.has(response.status) || (idempotent && response.status >= 500);
        if (!retryable) throw failure;
        retryAfter = retryAfterSeconds(response.headers, response.body as { retryAfter?: unknown });
      } catch (error) {
        if (!(error instanceof DashboardClientError) || error instanceof DashboardApiError) throw error;
        failure = error;
        // A time-out may have reached the server: only idempotent requests are repeated.
        if (error instanceof DashboardTimeoutError && !idempotent) throw error;
        // A refused connection never reached the server; other network failures might have.
        if (!idempotent && !refusedConnection(error)) throw error;
      }
      const wait = retry < retries ? delayFor(retry, retryAfter) : undefined;
      if (wait === undefined) throw failure;
      await sleep(wait, request.signal);
    }
  }

  return { request, baseUrl };
}

export type Transport = ReturnType<typeof createTransport>;

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function refusedConnection(error: DashboardNetworkError): boolean {
  const cause = (error.cause as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
