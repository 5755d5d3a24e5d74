import { NotFoundError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { addDays } from '../../shared/time.js';
import { reportWindow } from '../reports/aggregation.js';
import { latestAttemptRows, resultsOfRows, type StoredTestResult } from './test-results-read.js';
import { countTestsBySpec, listTests, type QuarantineOfTest, type TestListFilter } from './tests-list.js';
import type { SpecTestCounts } from '../reports/insight.service.js';
import type { PackedSpecRow, TestsRepository } from './tests.repository.js';
import { type PackedResult, unpackResults } from './result-pack.js';
import type { TestItem, TestPage } from './tests.schema.js';

/** What the tests need of the other modules. */
export interface TestsServiceLinks {
  findSummary?: (summaryId: number) => Promise<{ date: string } | undefined>;
  appExists?: (appId: number) => Promise<boolean>;
  /** The active quarantines of an app as a lookup per test. */
  quarantinesOf?: (appId: number) => Promise<QuarantineOfTest>;
}

const NOTHING_QUARANTINED: QuarantineOfTest = () => null;

/** The runs a report of `date` reads: created from date − 14 days to the end of the date (UTC). */
function windowOf(date: string) {
  const { startDate, endDate } = reportWindow(date);
  return { fromIso: `${startDate}T00:00:00.000Z`, toIso: `${addDays(endDate, 1)}T00:00:00.000Z` };
}

/** One identity's results in spec rows, newest first. */
function resultsOfIdentity(rows: readonly PackedSpecRow[], identityId: number) {
  const found: { row: PackedSpecRow; packed: PackedResult }[] = [];
  for (const row of rows) {
    for (const packed of unpackResults(row.results)) {
      if (packed.identityId === identityId) found.push({ row, packed });
    }
  }
  const newest = (a: PackedSpecRow, b: PackedSpecRow) =>
    a.created_at === b.created_at ? b.upload_id - a.upload_id : a.created_at < b.created_at ? 1 : -1;
  return found.sort((a, b) => newest(a.row, b.row));
}

export interface HistoryFilter {
  /** Only the results of uploads of this branch. */
  branch?: string | undefined;
  /** Only the results of runs created at or after this ISO time. */
  since?: string | undefined;
}

export function createTestsService(deps: { repository: TestsRepository } & TestsServiceLinks) {
  const { repository } = deps;

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
      const { fromIso, toIso } = windowOf(date);
      if (!(await repository.hasUploadsIn(appId, fromIso, toIso))) return null;
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

    /** The tests of an app in a report's 14-day window (`GET /api/e2e_run_report/:summaryId/:appId/tests`). */
    async listForReport(
      summaryId: number,
      appId: number,
      filter: TestListFilter,
      page: Page,
    ): Promise<{ items: TestItem[]; total: number; fromIso: string }> {
      const summary = await deps.findSummary?.(summaryId);
      if (!summary) throw new NotFoundError(`Report ${summaryId} not found`);
      await knownApp(appId);
      const { fromIso, toIso } = windowOf(summary.date);
      const rows = await repository.specRowsIn(appId, fromIso, toIso);
      const quarantineOf = (await deps.quarantinesOf?.(appId)) ?? NOTHING_QUARANTINED;
      return { ...(await listTests(repository, rows, filter, page, quarantineOf)), fromIso };
    },

    /** Every stored result of one test, newest first (`GET /api/apps/:id/tests/:testId`). */
    async testPage(appId: number, testId: string, page: Page): Promise<{ test: TestPage; total: number }> {
      await knownApp(appId);
      const [identity] = await repository.identitiesByKeys(appId, [testId]);
      if (!identity) throw new NotFoundError(`Test ${testId} not found in application ${appId}`);
      const rows = await repository.specRowsOf(appId, [identity.spec]);
      const all = resultsOfIdentity(rows, identity.id);
      const shown = all.slice(page.offset, page.offset + page.limit);
      const failedIn = shown
        .filter(({ packed }) => packed.status === 'failed')
        .map(({ row }) => row.upload_id);
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
          results: shown.map(({ row, packed }) => {
            const error = packed.status === 'failed' ? errors.get(row.upload_id) : undefined;
            return {
              uploadId: row.upload_id,
              runNumber: row.run_number,
              attempt: row.attempt,
              status: packed.status,
              durationMs: packed.durationMs,
              at: row.created_at,
              commitSha: row.commit_sha,
              branch: row.branch,
              runUrl: row.run_url,
              error: error ? { message: error.message, stack: error.stack, location: error.location } : null,
            };
          }),
        },
        total: all.length,
      };
    },
  };
}

export type TestsService = ReturnType<typeof createTestsService>;
