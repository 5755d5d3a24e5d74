import type { Dialect } from '../../../support/databases.js';
import { type ReportHarness, startReportHarness } from '../../../support/report-harness.js';

/** What the report pipeline suites share: the harness with its apps, and the fake's reset. */

export interface Body {
  success: boolean;
  summary: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- nested API objects, read freely
  details?: Record<string, any>[];
  message?: string;
}

/** The harness on `dialect` with two watched apps, `web` and `api`, and one unwatched, `ignored`. */
export async function startPipeline(dialect: Dialect) {
  const h = await startReportHarness({ dialect });
  const web = await h.createApp('web');
  const api = await h.createApp('api');
  await h.createApp('ignored', false);
  return { h, web, api };
}

/** Each test starts from a fake Cypress with no rows, no failures, no delay and no request seen. */
export function resetFake(h: ReportHarness) {
  h.fake.rows = [];
  h.fake.failures = [];
  h.fake.requests.length = 0;
  h.fake.delayMs = 0;
}
