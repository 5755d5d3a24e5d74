import { describeFailure } from '../../integrations/call-outcomes.js';

/** The first try and three retries (the spec's 5 s, 10 s and 20 s). */
export const MAX_ATTEMPTS = 4;
/** The longest `lastError` a summary carries. */
export const LAST_ERROR_MAX_LENGTH = 300;

/**
 * A failed attempt as the summary shows it: one line of at most 300 characters, with the same
 * masking as the status page (no query strings, no URL credentials, none of the given secrets).
 */
export function lastErrorOf(error: unknown, secrets: readonly (string | undefined)[] = []): string {
  return describeFailure(error, secrets, LAST_ERROR_MAX_LENGTH);
}
