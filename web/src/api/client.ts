/** Thin fetch wrapper over the public HTTP API: adds the key, parses both error shapes. */

export interface FieldProblem {
  field: string;
  message: string;
  code?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly details: FieldProblem[],
    /** Seconds to wait, for 429 answers. */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Message for a field (`name`, `e2eTriggerConfiguration.schedule`, ...), if the API named one. */
  forField(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.message;
  }
}

const KEY_STORAGE = 'dashboard.apiKey';

export function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(KEY_STORAGE);
    else localStorage.setItem(KEY_STORAGE, key);
  } catch {
    // Private modes may refuse storage; the key then lives only for this page.
  }
}

type Listener = (error: ApiError) => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when any request answers 401: the key in the browser is no longer good. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function parseDetails(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value
    .map(asRecord)
    .filter((d) => typeof d.field === 'string' && typeof d.message === 'string')
    .map((d) => ({
      field: d.field as string,
      message: d.message as string,
      ...(typeof d.code === 'string' ? { code: d.code } : {}),
    }));
}

const FALLBACK_MESSAGES: Record<number, string> = {
  401: 'The API key is invalid or missing.',
  404: 'Not found.',
  429: 'Too many requests.',
  500: 'The server had an unexpected problem.',
  502: 'An external service (GitHub, Jira, CircleCI or the test-results service) did not answer properly.',
  503: 'The service is temporarily unavailable.',
};

export function toApiError(status: number, body: unknown, headers?: Headers): ApiError {
  const root = asRecord(body);
  const envelope = asRecord(root.error);
  let message: string | undefined;
  let code: string | undefined;
  let details: FieldProblem[] = [];
  let retryAfter: number | undefined;
  if (typeof root.error === 'string') {
    // Flat shape: 401 `{error, code}`, brute-force 429 `{error, retryAfter}`.
    message = root.error;
    code = typeof root.code === 'string' ? root.code : undefined;
    details = parseDetails(root.details);
  } else if (typeof envelope.message === 'string') {
    message = envelope.message;
    code = typeof envelope.code === 'string' ? envelope.code : undefined;
    details = parseDetails(envelope.details);
    const retry = asRecord(envelope.details).retryAfter;
    if (typeof retry === 'number') retryAfter = retry;
  } else if (typeof root.message === 'string') {
    message = root.message;
  }
  if (typeof root.retryAfter === 'number') retryAfter = root.retryAfter;
  const header = headers?.get('retry-after');
  if (retryAfter === undefined && header && /^\d+$/.test(header)) retryAfter = Number(header);
  return new ApiError(
    status,
    message ?? FALLBACK_MESSAGES[status] ?? `Request failed (${status}).`,
    code,
    details,
    retryAfter,
  );
}

export interface ApiResponse<T> {
  status: number;
  body: T;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Send without the key (the validate endpoint). */
  anonymous?: boolean;
  key?: string;
}

export async function request<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = options.key ?? storedKey();
  if (!options.anonymous && key) headers['x-api-key'] = key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'Cannot reach the server. Check your connection and try again.',
      'NETWORK',
      [],
      undefined,
    );
  }
  const text = response.status === 204 ? '' : await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (!response.ok) {
    const error = toApiError(response.status, body, response.headers);
    if (response.status === 401 && !options.anonymous) unauthorizedListeners.forEach((l) => l(error));
    throw error;
  }
  return { status: response.status, body: body as T };
}

/** GET/POST/... returning the `data` member of a success body. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { body } = await request<{ data: T }>(path, options);
  return body?.data;
}

/** Human wording of an error, including how long to wait on 429. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : 'Something went wrong.';
  if (error.status === 429) {
    if (/(again|retry) in/i.test(error.message) || error.retryAfter === undefined) return error.message;
    return `${error.message.replace(/\.?\s*$/, '.')} Try again in ${formatWait(error.retryAfter)}.`;
  }
  if (error.status === 502) return `An external service failed: ${error.message}`;
  return error.message;
}

export function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
