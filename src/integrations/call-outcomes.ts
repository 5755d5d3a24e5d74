/**
 * What an integration client tells about its outbound calls, so the service can show when each
 * integration last worked and why it last failed (`GET /api/status`). Both methods must return at
 * once and never throw: reporting is a side channel of the call, never a cause of its failure.
 */
export interface CallOutcomes {
  /** The service answered as its protocol promises (a 404 for a missing item counts as an answer). */
  succeeded(): void;
  /** The call failed: unreachable, timed out, refused, or an answer the client could not use. */
  failed(error: unknown): void;
}

/** The integrations whose calls the status page shows. */
export const INTEGRATION_NAMES = ['cypress', 'github', 'jira', 'circleci', 'fcm'] as const;
export type IntegrationName = (typeof INTEGRATION_NAMES)[number];

/** Hands each integration's client the reporter of its call outcomes (the status page's tracker). */
export interface OutcomeReporters {
  /** The reporter of one integration; `secrets` never reach the stored failure text. */
  outcomes(name: IntegrationName, secrets?: readonly (string | undefined)[]): CallOutcomes;
}

/** For clients built without a status tracker (tools, unit tests). */
export const UNTRACKED: CallOutcomes = { succeeded: () => undefined, failed: () => undefined };

const MAX_MESSAGE_LENGTH = 200;

/**
 * A failure as a short line fit for a status page: no query strings (they may carry tokens, as
 * the Cypress report URL does), no user:password in URLs, none of the given secret values, one
 * line, at most 200 characters (or `maxLength`).
 */
export function describeFailure(
  error: unknown,
  secrets: readonly (string | undefined)[] = [],
  maxLength = MAX_MESSAGE_LENGTH,
): string {
  let message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown failure';
  message = message
    .replace(/\b(https?:\/\/)[^\s/@]*@/gi, '$1')
    .replace(/\b(https?:\/\/[^\s?#]*)[?#]\S*/gi, '$1');
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real tokens are long.
    if (secret && secret.length >= 6) message = message.split(secret).join('[redacted]');
  }
  message = message.replace(/\s+/g, ' ').trim();
  if (message === '') message = error instanceof Error ? error.name : 'unknown failure';
  return message.length > maxLength ? `${message.slice(0, maxLength - 1)}…` : message;
}

/** Runs one outbound call and reports how it went; the call's own result or error is passed on. */
export async function reportingOutcome<T>(outcomes: CallOutcomes, call: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await call();
  } catch (error) {
    outcomes.failed(error);
    throw error;
  }
  outcomes.succeeded();
  return result;
}
