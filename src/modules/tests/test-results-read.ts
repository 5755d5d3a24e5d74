import { type PackedStatus, unpackResults } from './result-pack.js';
import type { FailureTextRow, IdentityRow, PackedSpecRow, TestsRepository } from './tests.repository.js';

/** A stored error of a failed result: message ≤ 4 KB, stack ≤ 16 KB, location `file:line`. */
export interface TestError {
  message: string;
  stack: string;
  location: string | null;
}

/** One stored result of one test, with what its upload says of the run. */
export interface StoredTestResult {
  testId: string;
  spec: string;
  /** The title path joined with ` › `. */
  title: string;
  project: string | null;
  status: PackedStatus;
  retries: number;
  durationMs: number;
  uploadId: number;
  runNumber: number;
  attempt: number;
  /** The run's time (the upload's `createdAt`). */
  at: string;
  commitSha: string | null;
  branch: string | null;
  runUrl: string | null;
  /** The failure's text; null when it passed, or when the upload kept no text for it. */
  error: TestError | null;
}

/**
 * Decodes spec rows into results with their identities and, for failed ones, their errors.
 * `only` keeps the results of those identity ids.
 */
export async function resultsOfRows(
  repository: TestsRepository,
  rows: readonly PackedSpecRow[],
  only?: ReadonlyMap<number, IdentityRow>,
): Promise<StoredTestResult[]> {
  const decoded: {
    row: PackedSpecRow;
    identityId: number;
    result: ReturnType<typeof unpackResults>[number];
  }[] = [];
  for (const row of rows) {
    for (const result of unpackResults(row.results)) {
      if (only && !only.has(result.identityId)) continue;
      decoded.push({ row, identityId: result.identityId, result });
    }
  }
  const identities = new Map(only ?? []);
  const unknown = [...new Set(decoded.map((item) => item.identityId))].filter((id) => !identities.has(id));
  for (const identity of await repository.identitiesByIds(unknown)) identities.set(identity.id, identity);
  const failed = decoded.filter((item) => item.result.status === 'failed');
  const errors = errorsByResult(
    await repository.failuresOf(
      [...new Set(failed.map((item) => item.row.upload_id))],
      [...new Set(failed.map((item) => item.identityId))],
    ),
  );
  const results: StoredTestResult[] = [];
  for (const { row, identityId, result } of decoded) {
    const identity = identities.get(identityId);
    // An identity deleted by retention while an old upload still holds it: nothing to name.
    if (!identity) continue;
    results.push({
      testId: identity.key,
      spec: identity.spec,
      title: identity.title,
      project: identity.project === '' ? null : identity.project,
      status: result.status,
      retries: result.retries,
      durationMs: result.durationMs,
      uploadId: row.upload_id,
      runNumber: row.run_number,
      attempt: row.attempt,
      at: row.created_at,
      commitSha: row.commit_sha,
      branch: row.branch,
      runUrl: row.run_url,
      error: result.status === 'failed' ? (errors.get(`${row.upload_id}:${identityId}`) ?? null) : null,
    });
  }
  return results;
}

function errorsByResult(rows: readonly FailureTextRow[]): Map<string, TestError> {
  const errors = new Map<string, TestError>();
  for (const row of rows) {
    const key = `${row.upload_id}:${row.identity_id}`;
    if (!errors.has(key)) errors.set(key, { message: row.message, stack: row.stack, location: row.location });
  }
  return errors;
}

/** Of a run's spec rows, those of the highest attempt that holds each spec (re-runs replace). */
export function latestAttemptRows(rows: readonly PackedSpecRow[]): PackedSpecRow[] {
  const highest = new Map<string, number>();
  for (const row of rows) highest.set(row.spec, Math.max(highest.get(row.spec) ?? 0, row.attempt));
  return rows.filter((row) => row.attempt === highest.get(row.spec));
}
