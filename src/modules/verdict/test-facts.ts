import type { StoredTestResult } from '../tests/test-results-read.js';
import type { TestsService } from '../tests/tests.service.js';
import type { RunFailure } from './run-facts.js';
import { firstLine } from './verdict-classes.js';
import type { PastResult } from './verdict-history.js';

/** The per-test reads the verdict makes (issue #36's storage). */
export type TestReads = Pick<TestsService, 'resultsOfRun' | 'historyOf'>;

/**
 * The run's failing and retried tests from its per-test results, plus each standing spec that
 * failed without a failing test (a crash naming it). Empty when the run's uploads hold no
 * per-test results (stored before them): the spec-level facts are used instead.
 */
export function perTestFailures(results: readonly StoredTestResult[]) {
  if (results.length === 0) return undefined;
  // The same test in two uploads of one attempt (a file sent again with another timestamp): the
  // later upload stands.
  const failures = new Map<string, RunFailure>();
  const specsWithFailures = new Set<string>();
  for (const result of [...results].sort((a, b) => a.uploadId - b.uploadId)) {
    if (result.status !== 'failed' && result.status !== 'flaky') {
      failures.delete(result.testId);
      continue;
    }
    specsWithFailures.add(result.spec);
    failures.set(result.testId, {
      testId: result.testId,
      spec: result.spec,
      title: result.project ? `${result.title} [${result.project}]` : result.title,
      titlePath: result.title,
      outcome: result.status,
      error: result.status === 'failed' ? firstLine(result.error?.message) : null,
    });
  }
  return { failures: [...failures.values()], specsWithFailures };
}

/** Earlier results of the run's tests (other runs, before `beforeIso`), skipped ones left out. */
export async function perTestHistory(
  reads: TestReads,
  appId: number,
  runNumber: number,
  testIds: readonly string[],
  beforeIso: string,
): Promise<Map<string, PastResult[]>> {
  const history = await reads.historyOf(appId, testIds);
  const out = new Map<string, PastResult[]>();
  for (const [testId, results] of history) {
    out.set(
      testId,
      results
        .filter((r) => r.runNumber !== runNumber && r.at < beforeIso && r.status !== 'skipped')
        .map((r) => ({
          runNumber: r.runNumber,
          attempt: r.attempt,
          createdAt: r.at,
          commitSha: r.commitSha,
          branch: r.branch,
          status: r.status as PastResult['status'],
        })),
    );
  }
  return out;
}
