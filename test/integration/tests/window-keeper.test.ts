import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestsRepository } from '../../../src/modules/tests/tests.repository.js';
import { createTestsService } from '../../../src/modules/tests/tests.service.js';
import {
  createWindowStatsRepository,
  type WindowStatsRepository,
} from '../../../src/modules/tests/window-stats.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { type ReportHarness, startReportHarness } from '../../support/report-harness.js';
import { type Api, upload, XML } from '../uploads/upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const today = new Date().toISOString().slice(0, 10);
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const junit = (names: string[]) =>
  `<testsuites><testsuite name="cart" file="cart.spec.ts">${names
    .map((name) => `<testcase classname="cart" name="${name}" time="0.1"/>`)
    .join('')}</testsuite></testsuites>`;

/**
 * Reads that find a report's stored test figures out of date at the same time share one
 * computation of them (per process, per window and set of uploads) instead of each decoding the
 * window's results.
 */
describe.each(DIALECTS)('working out a window once for the reads that wait on it (%s)', (dialect) => {
  let h: ReportHarness;
  let appId: number;
  let code: string;
  let summaryId: number;
  const api: Api = (options) => h.api(options);
  const send = async (names: string[], run: number) => {
    const query = { app: code, run, createdAt: hoursAgo(run) };
    const response = await upload(api, junit(names), { contentType: XML, query });
    expect(response.statusCode, response.body).toBe(201);
  };

  /** The tests service over the real repositories, the windows' `replace` counted. */
  function countingService() {
    const stored = createWindowStatsRepository(h.database.db);
    const computed: number[] = [];
    const windows: WindowStatsRepository = {
      ...stored,
      replace: (...args) => {
        computed.push(args[2].length);
        return stored.replace(...args);
      },
    };
    const repository = createTestsRepository(h.database.db);
    const service = createTestsService({
      repository,
      windows,
      findSummary: (id) => repository.findSummary(id),
      retentionDays: 30,
    });
    return { service, computed };
  }

  beforeAll(async () => {
    h = await startReportHarness({ dialect, env: { REPORT_REFRESH_DELAY_MS: '3600000' } });
    appId = await h.createApp('keeper');
    const app = await api({ method: 'GET', url: `/api/apps/${appId}` });
    code = app.json<Json>().data.code as string;
    await send(['adds', 'removes'], 1);
    await api({ method: 'GET', url: `/api/e2e_run_report?date=${today}&force=true` });
    summaryId = (await h.waitForReport(today)).json<Json>().summary.id as number;
  });
  afterAll(async () => h.close());

  it('computes an out-of-date window once for lists and spec counts asked together', async () => {
    await send(['adds', 'removes', 'empties'], 2);
    const { service, computed } = countingService();
    const page = { limit: 50, offset: 0, requested: true };
    const answers = await Promise.all([
      service.listForReport(summaryId, appId, { status: 'all' }, page),
      service.listForReport(summaryId, appId, { status: 'all' }, page),
      service.listForReport(summaryId, appId, { status: 'failing' }, page),
      service.testCountsOfSpecs(appId, today, ['cart.spec.ts']),
      service.testCountsOfSpecs(appId, today, ['cart.spec.ts']),
    ]);
    expect(computed).toEqual([3]);
    expect(answers[0]).toMatchObject({ total: 3 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[3]!).toEqual(new Map([['cart.spec.ts', { total: 3, failing: 0, flaky: 0, skipped: 0 }]]));

    // Up to date: nothing to work out. Another upload: worked out again, once.
    await service.listForReport(summaryId, appId, { status: 'all' }, page);
    expect(computed).toEqual([3]);
    await send(['adds', 'removes', 'empties', 'counts'], 3);
    await Promise.all([
      service.listForReport(summaryId, appId, { status: 'all' }, page),
      service.testCountsOfSpecs(appId, today, ['cart.spec.ts']),
    ]);
    expect(computed).toEqual([3, 4]);
  });
});
