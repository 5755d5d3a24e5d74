import { createHash } from 'node:crypto';
import { RUN_ERROR_SPEC } from '../test-results/report-model.js';
import { firstLine } from './verdict-classes.js';
import type { PastResult } from './verdict-history.js';
import type { PastSpecRow, RunFailureRow, RunSpecRow, RunUploadRow } from './verdict.repository.js';

/** A test that failed in the run, or passed in it only on a retry. */
export interface RunFailure {
  testId: string;
  spec: string;
  /** The test's title; empty for a spec that failed (or was flaky) without a named test. */
  title: string;
  outcome: 'failed' | 'flaky';
  error: string | null;
  /** The stored title path (without the project), for the per-test quarantine lookup. */
  titlePath?: string;
}

/** A stable id of a test from its spec and title, for stored rows that carry no per-test id. */
export function testIdOf(spec: string, title: string): string {
  return createHash('sha256').update(`${spec}\u0000${title}`).digest('base64url').slice(0, 22);
}

/**
 * The spec rows that stand for the run: per spec, those of its latest attempt (a re-run replaces
 * what an earlier attempt said about the spec, the uploads' attempts rule).
 */
export function latestAttemptSpecs(
  uploads: readonly RunUploadRow[],
  specs: readonly RunSpecRow[],
): RunSpecRow[] {
  const attemptOf = new Map(uploads.map((upload) => [upload.id, upload.attempt]));
  const latest = new Map<string, number>();
  for (const row of specs) {
    const attempt = attemptOf.get(row.upload_id) ?? 1;
    if (attempt > (latest.get(row.spec) ?? 0)) latest.set(row.spec, attempt);
  }
  return specs.filter((row) => attemptOf.get(row.upload_id) === latest.get(row.spec));
}

/** Errored when an upload of the run's latest attempt crashed outside its tests. */
export function runErrored(uploads: readonly RunUploadRow[]): boolean {
  const latest = Math.max(...uploads.map((upload) => upload.attempt));
  return uploads.some((upload) => upload.attempt === latest && upload.status === 'errored');
}

/**
 * The failing tests of the run's standing specs (the crash stand-in spec aside: `errored` says
 * it), a failed spec without a named failure as itself, and a spec with tests passed on a retry.
 */
export function runFailures(
  standing: readonly RunSpecRow[],
  failures: readonly RunFailureRow[],
): RunFailure[] {
  const out = new Map<string, RunFailure>();
  const standingKeys = new Set(standing.map((row) => `${row.upload_id}\u0000${row.spec}`));
  const named = new Set<string>();
  for (const failure of failures) {
    if (failure.spec === RUN_ERROR_SPEC) continue;
    if (!standingKeys.has(`${failure.upload_id}\u0000${failure.spec}`)) continue;
    const testId = testIdOf(failure.spec, failure.test);
    named.add(failure.spec);
    if (!out.has(testId)) {
      out.set(testId, {
        testId,
        spec: failure.spec,
        title: failure.test,
        outcome: 'failed',
        error: firstLine(failure.message),
      });
    }
  }
  for (const row of standing) {
    if (row.spec === RUN_ERROR_SPEC || named.has(row.spec)) continue;
    const failed = row.status === 'failed';
    if (!failed && row.flaky === 0) continue;
    const testId = testIdOf(row.spec, '');
    out.set(testId, {
      testId,
      spec: row.spec,
      title: '',
      outcome: failed ? 'failed' : 'flaky',
      error: failed ? firstLine(row.first_failure_message) : null,
    });
  }
  return [...out.values()];
}

/** Each test's earlier results, from the spec rows of earlier uploads and their named failures. */
export function pastResults(
  tests: readonly RunFailure[],
  pastSpecs: readonly PastSpecRow[],
  pastFailures: readonly RunFailureRow[],
): Map<string, PastResult[]> {
  const failed = new Set(pastFailures.map((f) => `${f.upload_id}\u0000${f.spec}\u0000${f.test}`));
  const bySpec = new Map<string, PastSpecRow[]>();
  for (const row of pastSpecs) {
    if (row.status === 'noTests') continue;
    bySpec.set(row.spec, [...(bySpec.get(row.spec) ?? []), row]);
  }
  const out = new Map<string, PastResult[]>();
  for (const test of tests) {
    const rows = bySpec.get(test.spec) ?? [];
    out.set(
      test.testId,
      rows.map((row) => ({
        runNumber: row.run_number,
        attempt: row.attempt,
        createdAt: row.created_at,
        commitSha: row.commit_sha,
        branch: row.branch,
        status: pastStatus(test, row, failed),
      })),
    );
  }
  return out;
}

function pastStatus(test: RunFailure, row: PastSpecRow, failed: ReadonlySet<string>): PastResult['status'] {
  if (test.title === '') {
    if (row.status === 'failed') return 'failed';
    return row.flaky > 0 ? 'flaky' : 'passed';
  }
  if (failed.has(`${row.upload_id}\u0000${row.spec}\u0000${test.title}`)) return 'failed';
  // Spec rows count tests passed on a retry without naming them: until per-test rows name them,
  // a spec's retry counts for each of its tests that did not fail.
  return row.flaky > 0 ? 'flaky' : 'passed';
}
