import type { Dialect } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

/* What the applications API files (apps-records.test.ts, apps-refusals.test.ts) share. */

export const validApp = (overrides: Record<string, unknown> = {}) => ({
  name: 'Checkout',
  code: 'checkout',
  pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/checkout',
  ...overrides,
});

/**
 * The app of the enclosing `describe` on `dialect`, its applications emptied before each test, and
 * a POST /api/apps of any body.
 */
export function appsSuite(dialect: Dialect) {
  const t = suiteTestApp({ dialect }, ['apps']);
  const create = (body: unknown) => t.api({ method: 'POST', url: '/api/apps', payload: body as object });
  return { t, create };
}
