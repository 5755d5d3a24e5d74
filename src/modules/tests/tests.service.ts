import { NotFoundError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { addDays } from '../../shared/time.js';
import { reportWindow } from '../reports/aggregation.js';
import { latestAttemptRows, resultsOfRows, type StoredTestResult } from './test-results-read.js';
import { countTestsBySpec, listTests, type QuarantineOfTest, type TestListFilter } from './tests-list.js';
import { createWindowKeeper } from './window-stats.js';
import type { WindowStatsRepository } from './window-stats.repository.js';
import type { TestPageReader } from './test-page.js';
import { windowRetention, type WindowRetention } from './window-retention.js';
import type { SpecTestCounts } from '../reports/insight.service.js';
import type { TestsRepository } from './tests.repository.js';
import { unpackResults } from './result-pack.js';
import type { TestItem, TestPage } from './tests.schema.js';

/** What the tests need of the other modules. */
export interface TestsServiceLinks {
  findSummary?: (summaryId: number) => Promise<{ date: string } | undefined>;
  appExists?: (appId: number) => Promise<boolean>;
  /** The active quarantines of an app as a lookup per test. */
  quarantinesOf?: (appId: number) => Promise<QuarantineOfTest>;
  /** Reads one test's stored results a page at a time. */
  pages?: TestPageReader;
  /** Where the tests list's figures are stored per report window. */
  windows?: WindowStatsRepository;
  /** RESULTS_RETENTION_DAYS: the tests list says whether its window lies within it. */
  retentionDays?: number;
  now?: () => Date;
}

const NOTHING_QUARANTINED: QuarantineOfTest = () => null;

/** The runs a report of `date` reads: created from date − 14 days to the end of the date (UTC). */
function windowOf(date: string) {
  const { startDate, endDate } = reportWindow(date);
  return { fromIso: `${startDate}T00:00:00.000Z`, toIso: `${addDays(endDate, 1)}T00:00:00.000Z` };
}

export interface HistoryFilter {
  /** Only the results of uploads of this branch. */
  branch?: string | undefined;
  /** Only the results of runs created at or after this ISO time. */
  since?: string | undefined;
}

export function createTestsService(deps: { repository: TestsRepository } & TestsServiceLinks) {
  const { repository } = deps;
  const windows = deps.windows ? createWindowKeeper({ windows: deps.windows, tests: repository }) : undefined;

  async function knownApp(appId: number) {
    if (deps.appExists && !(await deps.appExists(appId))) {
      throw new NotFoundError(`Application ${appId} not found`);
    }
  }

  return {
    /**
     * Every test's result in one run of an app: for each spec, the results of the highest attempt
     * that holds it (a shard re-run replaces its own specs only), in upload then report order.
     */
    async resultsOfRun(appId: number, runNumber: number): Promise<StoredTestResult[]> {
      const rows = await repository.specRowsOfRun(appId, runNumber);
      return resultsOfRows(repository, latestAttemptRows(rows));
    },

    /**
     * Every stored result of the given tests (by testId), oldest first, keyed by testId; a testId
     * the app does not know is absent from the map.
     */
    async historyOf(
      appId: number,
      testIds: readonly string[],
      filter: HistoryFilter = {},
    ): Promise<Map<string, StoredTestResult[]>> {
      const identities = await repository.identitiesByKeys(appId, [...new Set(testIds)]);
      const history = new Map<string, StoredTestResult[]>(identities.map((identity) => [identity.key, []]));
      if (identities.length === 0) return history;
      const rows = await repository.specRowsOf(
        appId,
        [...new Set(identities.map((identity) => identity.spec))],
        {
          branch: filter.branch,
          sinceIso: filter.since,
        },
      );
      const only = new Map(identities.map((identity) => [identity.id, identity]));
      for (const result of await resultsOfRows(repository, rows, only))
        history.get(result.testId)!.push(result);
      return history;
    },

    /** Each spec's tests in a report date's window; null when the app has no upload there. */
    async testCountsOfSpecs(
      appId: number,
      date: string,
      specs: readonly string[],
    ): Promise<Map<string, SpecTestCounts> | null> {
      const range = windowOf(date);
      const { fromIso, toIso } = range;
      if (!(await repository.hasUploadsIn(appId, fromIso, toIso))) return null;
      const summaryId = await deps.windows?.summaryOfDate(date);
      if (deps.windows && windows && summaryId !== undefined) {
        // The report's stored figures: the same counts without decoding the window's results.
        const key = { summaryId, appId };
        await windows.ensure(key, range);
        return deps.windows.countsBySpec(key, specs);
      }
      const rows = await repository.specRowsOf(appId, specs, { sinceIso: fromIso, untilIso: toIso });
      return countTestsBySpec(rows);
    },

    /** The title paths of a spec's tests that failed in the app's latest run of that spec. */
    async failingTestsOfLatestRun(appId: number, spec: string): Promise<string[]> {
      const run = await repository.latestRunOfSpec(appId, spec);
      if (run === undefined) return [];
      const rows = latestAttemptRows(await repository.specRowsOfRun(appId, run)).filter(
        (row) => row.spec === spec,
      );
      const failed = new Set<number>();
      for (const row of rows) {
        for (const result of unpackResults(row.results))
          if (result.status === 'failed') failed.add(result.identityId);
      }
      return (await repository.identitiesByIds([...failed])).map((identity) => identity.title);
    },

    /**
     * The tests of an app in a report's 14-day window (`GET /api/e2e_run_report/:summaryId/:appId/tests`),
     * from the figures stored for the window (worked out now when its uploads changed since), and
     * whether the window lies within the results' retention.
     */
    async listForReport(
      summaryId: number,
      appId: number,
      filter: TestListFilter,
      page: Page,
    ): Promise<{ items: TestItem[]; total: number; retention: WindowRetention }> {
      const summary = await deps.findSummary?.(summaryId);
      if (!summary) throw new NotFoundError(`Report ${summaryId} not found`);
      await knownApp(appId);
      if (!deps.windows || !windows || deps.retentionDays === undefined) {
        throw new Error('the tests list needs the stored window figures and the retention');
      }
      const repositories = { windows: deps.windows, tests: repository };
      const range = windowOf(summary.date);
      const key = { summaryId, appId };
      const [quarantines] = await Promise.all([deps.quarantinesOf?.(appId), windows.ensure(key, range)]);
      const quarantineOf = quarantines ?? NOTHING_QUARANTINED;
      // An upload the stored figures name may go (retention) between the check and the read.
      let listed = await listTests(repositories, key, filter, page, quarantineOf);
      if (!listed) {
        await windows.recompute(key, range);
        listed = await listTests(repositories, key, filter, page, quarantineOf);
      }
      if (!listed) throw new Error(`the tests of report ${summaryId} changed while being read`);
      const retention = windowRetention(range.fromIso, deps.retentionDays, deps.now?.() ?? new Date());
      return { ...listed, retention };
    },

    /** Works out and stores every app's test figures over a report date's window (report generation). */
    async storeWindowsOf(date: string): Promise<void> {
      if (!deps.windows || !windows) return;
      const summaryId = await deps.windows.summaryOfDate(date);
      if (summaryId === undefined) return;
      const range = windowOf(date);
      for (const appId of await deps.windows.appsWithUploadsIn(range.fromIso, range.toIso)) {
        await windows.ensure({ summaryId, appId }, range);
      }
    },

    /** Every stored result of one test, newest first (`GET /api/apps/:id/tests/:testId`). */
    async testPage(appId: number, testId: string, page: Page): Promise<{ test: TestPage; total: number }> {
      await knownApp(appId);
      const [identity] = await repository.identitiesByKeys(appId, [testId]);
      if (!identity) throw new NotFoundError(`Test ${testId} not found in application ${appId}`);
      if (!deps.pages) throw new Error('the test page needs its reader');
      const { results, total } = await deps.pages.page(appId, identity, page);
      const failedIn = results.filter(({ packed }) => packed.status === 'failed').map(({ run }) => run.id);
      const errors = new Map(
        (await repository.failuresOf([...new Set(failedIn)], [identity.id])).map((row) => [
          row.upload_id,
          row,
        ]),
      );
      return {
        test: {
          testId: identity.key,
          spec: identity.spec,
          title: identity.title,
          project: identity.project === '' ? null : identity.project,
          results: results.map(({ run, packed }) => {
            const error = packed.status === 'failed' ? errors.get(run.id) : undefined;
            return {
              uploadId: run.id,
              runNumber: run.run_number,
              attempt: run.attempt,
              status: packed.status,
              durationMs: packed.durationMs,
              at: run.created_at,
              commitSha: run.commit_sha,
              branch: run.branch,
              runUrl: run.run_url,
              error: error ? { message: error.message, stack: error.stack, location: error.location } : null,
            };
          }),
        },
        total,
      };
    },
  };
}

export type TestsService = ReturnType<typeof createTestsService>;
