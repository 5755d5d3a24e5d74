import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type ReportHarness, startReportHarness } from '../../support/report-harness.js';
import type { Dialect } from '../../support/test-database.js';
import type { Json } from '../../support/acceptance-support.js';

export interface InsightAcceptanceSuite {
  h: ReportHarness;
  shop: number;
  quiet: number;
}

/**
 * The test-insight acceptance suites' set-up on `dialect`: a report harness over the fake Cypress
 * export with the watched apps `shop` and `quiet-app` (`quiet`) and one unwatched app, and no
 * export rows at the start of each test. `suite` is filled in once the harness has started, so
 * read it only inside hooks and tests.
 */
export function insightAcceptanceSuite(dialect: Dialect) {
  const suite = {} as InsightAcceptanceSuite;
  beforeAll(async () => {
    suite.h = await startReportHarness({ dialect });
    suite.shop = await suite.h.createApp('shop');
    suite.quiet = await suite.h.createApp('quiet-app');
    // Not watched: never listed among the apps without runs.
    await suite.h.createApp('unwatched', false);
  });
  afterAll(async () => suite.h.close());
  beforeEach(() => {
    suite.h.fake.rows = [];
  });

  const get = (url: string) => suite.h.api({ method: 'GET', url });
  const generate = async (date: string) => {
    await get(`/api/e2e_run_report?date=${date}`);
    return (await suite.h.waitForReport(date)).json<Json>();
  };
  const specsOf = async (summaryId: number, appId: number) =>
    (await get(`/api/e2e_run_report/${summaryId}/${appId}/specs`)).json<Json>().data as Json[];
  return { suite, get, generate, specsOf };
}
