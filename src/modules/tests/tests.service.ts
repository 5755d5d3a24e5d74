import { NotFoundError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { addDays } from '../../shared/time.js';
import { reportWindow } from '../reports/aggregation.js';
import { latestAttemptRows, resultsOfRows, type StoredTestResult } from './test-results-read.js';
import { listTests, type QuarantineOfTest, type TestListFilter } from './tests-list.js';
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
      const { startDate, endDate } = reportWindow(summary.date);
      const fromIso = `${startDate}T00:00:00.000Z`;
      const rows = await repository.specRowsIn(appId, fromIso, `${addDays(endDate, 1)}T00:00:00.000Z`);
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
