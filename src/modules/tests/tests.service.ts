import { latestAttemptRows, resultsOfRows, type StoredTestResult } from './test-results-read.js';
import type { TestsRepository } from './tests.repository.js';

export interface HistoryFilter {
  /** Only the results of uploads of this branch. */
  branch?: string | undefined;
  /** Only the results of runs created at or after this ISO time. */
  since?: string | undefined;
}

export function createTestsService(deps: { repository: TestsRepository }) {
  const { repository } = deps;

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
  };
}

export type TestsService = ReturnType<typeof createTestsService>;
