/** Base class of every error the client throws, so callers can catch them all at once. */
export class DashboardClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The service answered with an error status. `code` is the envelope's `error.code` (or the flat
 * body's `code`; `TOO_MANY_REQUESTS` for the brute-force block, `HTTP_<status>` when the body
 * names none), so callers branch on codes, never on messages.
 */
export class DashboardApiError extends DashboardClientError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
    /** The parsed body (or text) exactly as received. */
    readonly body: unknown,
    readonly requestId: string | undefined,
    /** Seconds from `Retry-After` (or the body's `retryAfter`) when the service sent one. */
    readonly retryAfterSeconds: number | undefined,
    /** The service's own wording, without the method and path: what a user interface shows. */
    readonly serviceMessage: string = message,
  ) {
    super(message);
  }
}

/** The request never got an answer: connection refused or reset, DNS failure… */
export class DashboardNetworkError extends DashboardClientError {}

/** No answer within the client's time-out (per attempt). */
export class DashboardTimeoutError extends DashboardClientError {
  constructor(
    readonly timeoutMs: number,
    message: string,
  ) {
    super(message);
  }
}

interface EnvelopeBody {
  error?: unknown;
  code?: unknown;
  message?: unknown;
  retryAfter?: unknown;
}

/** Reads the service's two error shapes (envelope and flat) into one typed error. */
export function toApiError(status: number, body: unknown, headers: Headers, method: string, path: string) {
  const record: EnvelopeBody = typeof body === 'object' && body !== null ? body : {};
  const envelope =
    typeof record.error === 'object' && record.error !== null
      ? (record.error as { message?: unknown; code?: unknown; details?: unknown })
      : undefined;
  const code =
    stringOr(envelope?.code) ??
    stringOr(record.code) ??
    (status === 429 ? 'TOO_MANY_REQUESTS' : status === 401 ? 'UNAUTHORIZED' : `HTTP_${status}`);
  const message =
    stringOr(envelope?.message) ??
    stringOr(record.error) ??
    stringOr(record.message) ??
    (typeof body === 'string' && body !== '' ? body.slice(0, 200) : `HTTP ${status}`);
  return new DashboardApiError(
    status,
    code,
    `${method} ${path} failed with ${status} ${code}: ${message}`,
    envelope?.details,
    body,
    headers.get('x-request-id') ?? undefined,
    retryAfterSeconds(headers, record),
    message,
  );
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `Retry-After` as seconds or an HTTP date; falls back to the body's `retryAfter`. */
export function retryAfterSeconds(headers: Headers, body: { retryAfter?: unknown } = {}): number | undefined {
  const header = headers.get('retry-after');
  if (header !== null) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim());
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  return typeof body.retryAfter === 'number' && body.retryAfter >= 0 ? body.retryAfter : undefined;
}
