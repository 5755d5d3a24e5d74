import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type ReportHarness, startReportHarness } from '../../support/report-harness.js';
import type { Dialect } from '../../support/test-database.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
export type Json = Record<string, any>;

export interface InsightSuite {
  h: ReportHarness;
  shop: number;
  admin: number;
  silent: number;
}

/**
 * The insight endpoint suites' set-up on `dialect`: a report harness with the watched apps
 * `shop`, `admin` and `shopp` (`silent`), and no export rows at the start of each test. `suite`
 * is filled in once the harness has started, so read it only inside hooks and tests.
 */
export function insightSuite(dialect: Dialect) {
  const suite = {} as InsightSuite;
  beforeAll(async () => {
    suite.h = await startReportHarness({ dialect });
    suite.shop = await suite.h.createApp('shop');
    suite.admin = await suite.h.createApp('admin');
    // Watched, but no Cypress project carries this (misspelled) name.
    suite.silent = await suite.h.createApp('shopp');
  });
  afterAll(async () => suite.h.close());
  beforeEach(() => {
    suite.h.fake.rows = [];
  });

  const get = (url: string) => suite.h.api({ method: 'GET', url });
  const report = async (date: string) => (await suite.h.waitForReport(date)).json<Json>();
  const notifications = async (type: string) =>
    (await get(`/api/notifications?type=${type}&limit=100`)).json<Json>().data as Json[];
  return { suite, get, report, notifications };
}
