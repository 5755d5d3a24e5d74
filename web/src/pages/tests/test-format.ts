import type { FlakyEvidence, TestResult, TestStatus } from '../../../../src/client/index.js';
import { formatDate } from '../../lib/time';

/** The page of one test; `date` names the report its figures and flakiness come from. */
export function testPath(appId: number, testId: string, date?: string): string {
  const path = `/apps/${appId}/tests/${encodeURIComponent(testId)}`;
  return date ? `${path}?date=${encodeURIComponent(date)}` : path;
}

/** `/apps/12/tests/abc` → {appId: 12, testId: 'abc'}; anything else → undefined. */
export function testFromPath(path: string): { appId: number; testId: string } | undefined {
  const match = /^\/apps\/(\d+)\/tests\/([^/]+)\/?$/.exec(path);
  if (!match) return undefined;
  const appId = Number(match[1]);
  let testId: string;
  try {
    testId = decodeURIComponent(match[2]!);
  } catch {
    return undefined;
  }
  return Number.isSafeInteger(appId) && appId > 0 && testId !== '' ? { appId, testId } : undefined;
}

/** The dashboard's page of a CI run (the runs page). */
export const runPath = (appId: number, runNumber: number) => `/apps/${appId}/runs/${runNumber}`;

export const shortSha = (sha: string) => sha.slice(0, 7);

/** "passed on retry in run #412", "failed and passed on commit 1a2b3c4". */
export function evidenceSentence(evidence: FlakyEvidence): string {
  if (evidence.kind === 'retry') return `passed on retry in run #${evidence.runNumber}`;
  return evidence.commitSha
    ? `failed and passed on commit ${shortSha(evidence.commitSha)} (run #${evidence.runNumber})`
    : `failed and passed on the same commit (run #${evidence.runNumber})`;
}

/**
 * The same evidence, read from the test's own results, for when no report of the date lists the
 * test: a run with a failed attempt and a passing one, or a commit with a failed and a passing run.
 * Newest first, at most `max`.
 */
export function evidenceFromResults(results: readonly TestResult[], max = 5): FlakyEvidence[] {
  const runs = new Map<number, TestResult[]>();
  const commits = new Map<string, TestResult[]>();
  for (const result of results) {
    runs.set(result.runNumber, [...(runs.get(result.runNumber) ?? []), result]);
    if (result.commitSha) commits.set(result.commitSha, [...(commits.get(result.commitSha) ?? []), result]);
  }
  const mixed = (list: TestResult[]) =>
    list.some((r) => r.status === 'failed') && list.some((r) => r.status === 'passed');
  const out: FlakyEvidence[] = [];
  const seen = new Set<number>();
  for (const result of results) {
    if (out.length >= max) break;
    if (seen.has(result.runNumber)) continue;
    const inRun = runs.get(result.runNumber)!;
    if (result.status === 'flaky' || mixed(inRun)) {
      seen.add(result.runNumber);
      out.push({
        runNumber: result.runNumber,
        runUrl: result.runUrl,
        commitSha: result.commitSha,
        kind: 'retry',
      });
      continue;
    }
    const onCommit = result.commitSha ? commits.get(result.commitSha)! : [];
    if (result.status !== 'skipped' && mixed(onCommit)) {
      seen.add(result.runNumber);
      out.push({
        runNumber: result.runNumber,
        runUrl: result.runUrl,
        commitSha: result.commitSha,
        kind: 'same_commit',
      });
    }
  }
  return out;
}

/** A shape as well as a colour per status, so the strip reads without colour too. */
export const STATUS_MARKS: Record<TestStatus, { mark: string; label: string }> = {
  passed: { mark: '✓', label: 'passed' },
  failed: { mark: '✕', label: 'failed' },
  flaky: { mark: '~', label: 'flaky (passed on retry)' },
  skipped: { mark: '–', label: 'skipped' },
};

/**
 * One point per result, oldest first, so the line sits under the strip's cells: `ms` is null for a
 * skipped result or one without a duration (a gap in the line).
 */
export function durationSeries(results: readonly TestResult[]): { runNumber: number; ms: number | null }[] {
  return results
    .map((result) => ({
      runNumber: result.runNumber,
      ms: result.status === 'skipped' ? null : result.durationMs,
    }))
    .reverse();
}

/** The newest result that carries an error, and the run it came from. */
export function latestError(results: readonly TestResult[]): TestResult | undefined {
  return results.find((result) => result.error !== null);
}

/** What the tests list says of the results' retention (its `retention`). */
export interface ListRetention {
  days: number;
  oldestKeptAt: string;
  windowComplete: boolean;
}

/**
 * The note under a report's tests when its 14-day window starts before the oldest result still
 * kept (some runs may be gone); null when the window is whole.
 */
export function retentionNote(
  retention: ListRetention | undefined,
  formatDay: (iso: string) => string = formatDate,
): string | null {
  if (!retention || retention.windowComplete) return null;
  const days = retention.days === 1 ? '1 day' : `${retention.days} days`;
  return `Results are kept ${days}: runs of this report's window before ${formatDay(retention.oldestKeptAt)} may be missing from these figures.`;
}
