import * as crypto from 'node:crypto';

/** How a title path is joined into a test's title (Playwright's own separator). */
export const TITLE_SEPARATOR = ' › ';

export interface TestIdentityParts {
  spec: string;
  /** The title path joined with TITLE_SEPARATOR. */
  title: string;
  /** The Playwright project, '' when none. */
  project: string;
}

// Node's one-shot hash (20.12+) skips the Hash object of createHash: several times cheaper for
// the short texts hashed once per test of every upload. Same digest either way.
const sha256Base64url: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'base64url')
    : (text) => crypto.createHash('sha256').update(text).digest('base64url');

/**
 * A test's `testId`: 16 characters of base64url SHA-256 over the app and the identity's parts.
 * It depends on nothing stored, so the same test has the same id in every report and after any
 * retention or re-creation of its identity row.
 */
export function testIdOf(appId: number, parts: TestIdentityParts): string {
  return sha256Base64url(`${appId}\u0000${parts.spec}\u0000${parts.title}\u0000${parts.project}`).slice(
    0,
    16,
  );
}

/** Whether a text could be a testId (what testIdOf writes). */
export const looksLikeTestId = (text: string) => /^[A-Za-z0-9_-]{16}$/.test(text);
