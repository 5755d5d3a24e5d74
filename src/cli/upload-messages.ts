import { basename } from 'node:path';
import type { Static } from '@sinclair/typebox';
import { type DashboardApiError, DashboardNetworkError, DashboardTimeoutError } from '../client/errors.js';
import type { TestResultUpload } from '../modules/test-results/test-results.schema.js';

/**
 * An upload as the CLI reads it. `attempt`, `status` and `errors` are optional here so the CLI
 * also works against a server from before re-run attempts and crashed runs.
 */
export type UploadAnswer = Static<typeof TestResultUpload> & {
  attempt?: number;
  status?: 'ok' | 'errored';
  errors?: { message?: string }[];
};

/** The line printed for a stored file. */
export function summaryLine(file: string, created: boolean, upload: UploadAnswer): string {
  const state = created ? 'uploaded' : 'already uploaded';
  const attempt = upload.attempt !== undefined && upload.attempt > 1 ? `, attempt ${upload.attempt}` : '';
  return (
    `${basename(file)}: ${state} as #${upload.id} (${upload.format}, run ${upload.runNumber}${attempt}): ` +
    `${upload.tests} tests, ${upload.passed} passed, ${upload.failed} failed, ${upload.flaky} flaky, ` +
    `${upload.skipped} skipped`
  );
}

/** The warning for a file whose reporter recorded errors outside any test (a crashed run). */
export function crashWarning(upload: UploadAnswer): string | undefined {
  if (upload.status !== 'errored') return undefined;
  const firstLine = (upload.errors ?? [])
    .flatMap((error) => (error.message ?? '').split('\n'))
    .map((line) => line.trim())
    .find((line) => line !== '');
  return `warning: run ${upload.runNumber} crashed before its tests ran: ${firstLine ?? 'the report holds no test'}`;
}

/** `400 VALIDATION_ERROR: message (detail; detail)`. */
export function describeApiError(error: DashboardApiError): string {
  const details = Array.isArray(error.details)
    ? (error.details as { message?: unknown }[])
        .map((detail) => detail?.message)
        .filter((message): message is string => typeof message === 'string' && message !== '')
    : [];
  return `${error.status} ${error.code}: ${error.serviceMessage}${details.length ? ` (${details.join('; ')})` : ''}`;
}

/** Hint added to a 404 for the app when the server's own message does not say how to create it. */
export function unknownAppHint(error: DashboardApiError): string {
  return error.serviceMessage.includes('--create-app')
    ? ''
    : ' (create it with POST /api/apps, or add --create-app NAME to create it on upload)';
}

export const UNAUTHORIZED_WARNING =
  'warning: the dashboard refused DASHBOARD_API_KEY. Three wrong keys from one address ' +
  "(the server's BRUTE_FORCE_MAX_ATTEMPTS, 3 by default) block that address for 30 minutes " +
  '(BRUTE_FORCE_BLOCK_MS): check the key before trying again. No further file was sent.';

export function blockedWarning(error: DashboardApiError): string {
  const minutes = error.retryAfterSeconds !== undefined ? Math.ceil(error.retryAfterSeconds / 60) : undefined;
  const when = minutes !== undefined ? ` for ${minutes} more minute${minutes === 1 ? '' : 's'}` : '';
  return (
    `warning: the dashboard blocks this address${when} after too many wrong API keys ` +
    `(${error.serviceMessage}). No further file was sent.`
  );
}

/** Plain words for the usual reasons a request gets no answer, by Node's error codes. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed by the other side',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate from an untrusted authority',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate from an untrusted authority',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate for another host name',
  EPROTO: 'TLS handshake failed (is the URL https on a plain-http port?)',
};

/** The innermost code and message of a fetch failure (fetch wraps the socket's error as its cause). */
function innermost(error: unknown): { code?: string; message?: string } {
  const found: { code?: string; message?: string } = {};
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const link = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof link.code === 'string') found.code = link.code;
    if (typeof link.message === 'string' && link.message !== '') found.message = link.message;
    current = link.cause;
  }
  return found;
}

/** `cannot reach the dashboard at URL (reason)` for a request that got no answer; else undefined. */
export function unreachableMessage(baseUrl: string, error: unknown): string | undefined {
  if (error instanceof DashboardTimeoutError) {
    return `cannot reach the dashboard at ${baseUrl} (no answer within ${error.timeoutMs / 1000} s)`;
  }
  if (!(error instanceof DashboardNetworkError)) return undefined;
  const { code, message } = innermost(error.cause);
  const reason = (code !== undefined ? NETWORK_REASONS[code] : undefined) ?? code ?? message ?? error.message;
  return `cannot reach the dashboard at ${baseUrl} (${reason})`;
}
