import {
  DashboardApiError,
  DashboardNetworkError,
  DashboardTimeoutError,
} from '../../../src/client/index.js';
import { formatTime, fromNow } from '../lib/time.js';

/** How the UI reads the typed client's errors: status, field problems and human wording. */

export interface FieldProblem {
  field: string;
  message: string;
  code?: string;
}

/** The HTTP status of a failed call; 0 when the server was not reached; undefined for other errors. */
export function errorStatus(error: unknown): number | undefined {
  if (error instanceof DashboardApiError) return error.status;
  if (error instanceof DashboardNetworkError || error instanceof DashboardTimeoutError) return 0;
  return undefined;
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof DashboardApiError ? error.code : undefined;
}

/** The per-field problems of a 400 answer (`details: [{field, message, code}]`). */
export function fieldProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof DashboardApiError) || !Array.isArray(error.details)) return [];
  return (error.details as unknown[]).flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { field, message, code } = entry as Record<string, unknown>;
    if (typeof field !== 'string' || typeof message !== 'string') return [];
    return [{ field, message, ...(typeof code === 'string' ? { code } : {}) }];
  });
}

/**
 * The API names fields as its JSON does (`pipelineUrl must be…`); the user sees labels. The message
 * for one field, with the JSON name replaced by the label the form shows.
 */
export function fieldMessage(error: unknown, field: string, label: string): string | undefined {
  const problem = fieldProblems(error).find((p) => p.field === field);
  return problem ? withLabel(problem.message, field, label) : undefined;
}

export function withLabel(message: string, field: string, label: string): string {
  return message.startsWith(field) ? label + message.slice(field.length) : message;
}

/** The service's own wording of an error (without method and path). */
export function errorMessage(error: unknown): string {
  if (error instanceof DashboardApiError) return error.serviceMessage;
  if (error instanceof DashboardTimeoutError) return 'The server took too long to answer. Try again.';
  if (error instanceof DashboardNetworkError) {
    // Only the browser knows whether its own network is down; otherwise it is the server.
    return browserOffline()
      ? 'This browser is offline. Check the network connection.'
      : 'The dashboard server is not answering. Try again in a moment.';
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/** The browser's own word that it has no network (absent outside a browser). */
const browserOffline = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;

/**
 * A failure of the connection to the dashboard itself (no answer, or a 500/503/504 of its own), which
 * the page-wide connection bar reports, rather than a problem of one request.
 */
export function isConnectionError(error: unknown): boolean {
  const status = errorStatus(error);
  return status === 0 || status === 500 || status === 503 || status === 504;
}

export function retryAfter(error: unknown): number | undefined {
  return error instanceof DashboardApiError ? error.retryAfterSeconds : undefined;
}

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g;

/**
 * Rewrites the machine timestamps services put in messages ("rate limit exhausted until
 * 2025-03-01T14:05:00.000Z") as a person reads them: "until 14:05 (in 12 minutes)".
 */
export function humanizeTimes(message: string, now = Date.now()): string {
  return message.replace(ISO_INSTANT, (iso) => `${formatTime(iso, now)} (${fromNow(iso, now)})`);
}

/** Human wording of an error, including how long to wait on 429. */
export function describeError(error: unknown): string {
  const message = humanizeTimes(errorMessage(error));
  const status = errorStatus(error);
  if (status === 429) {
    const wait = retryAfter(error);
    if (/(again|retry) in/i.test(message) || wait === undefined) return message;
    return `${message.replace(/\.?\s*$/, '.')} Try again in ${formatWait(wait)}.`;
  }
  if (status === 502) return `An external service failed: ${message}`;
  return message;
}

export function errorTitle(error: unknown): string {
  switch (errorStatus(error)) {
    case undefined:
      return 'Something went wrong';
    case 429:
      return 'Slow down';
    case 502:
      return 'External service error';
    case 0:
      return browserOffline() ? 'Offline' : 'No answer';
    case 401:
      return 'Not signed in';
    default:
      return 'Request failed';
  }
}

export function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A validation problem raised by the UI itself, shaped like the API's so forms treat both alike. */
export function localError(message: string): DashboardApiError {
  return new DashboardApiError(
    400,
    'VALIDATION_ERROR',
    message,
    [],
    undefined,
    undefined,
    undefined,
    message,
  );
}
