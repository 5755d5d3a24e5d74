/**
 * Reading FCM HTTP v1 error answers. Google's error body:
 * `{error: {code, message, status, details: [{"@type": "…FcmError", errorCode},
 *   {"@type": "…BadRequest", fieldViolations: [{field, description}]}]}}`.
 */
export interface FcmErrorVerdict {
  /** The token will never work again: remove it. */
  tokenIsInvalid: boolean;
  reason: string;
}

interface GoogleErrorBody {
  error?: {
    status?: string;
    message?: string;
    details?: Array<{ '@type'?: string; errorCode?: string; fieldViolations?: Array<{ field?: string }> }>;
  };
}

const INVALID_TOKEN_CODES = new Set(['UNREGISTERED', 'INVALID_ARGUMENT']);

export function classifyFcmError(status: number, text: string): FcmErrorVerdict {
  let body: GoogleErrorBody = {};
  try {
    body = JSON.parse(text) as GoogleErrorBody;
  } catch {
    // A non-JSON answer (a proxy's HTML page) says nothing about the token.
  }
  const details = Array.isArray(body.error?.details) ? body.error.details : [];
  const errorCode =
    details.find((detail) => typeof detail.errorCode === 'string')?.errorCode ?? body.error?.status;
  const reason = `${status} ${errorCode ?? 'unknown'}${body.error?.message ? `: ${body.error.message}` : ''}`;
  if (errorCode === undefined || !INVALID_TOKEN_CODES.has(errorCode))
    return { tokenIsInvalid: false, reason };
  if (errorCode === 'INVALID_ARGUMENT') {
    // INVALID_ARGUMENT also answers a malformed message (a reserved data key, a payload over
    // 4 KB); then every token would be dropped. When FCM names the offending fields and the
    // token is not among them, the fault is the message's and the token stays.
    const fields = details
      .flatMap((detail) => detail.fieldViolations ?? [])
      .map((violation) => violation.field);
    if (fields.length > 0 && !fields.includes('message.token')) return { tokenIsInvalid: false, reason };
  }
  return { tokenIsInvalid: true, reason };
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
