/** One stored result of a test in an earlier run (any source: per-test rows or spec-level ones). */
export interface PastResult {
  runNumber: number;
  attempt: number;
  createdAt: string;
  commitSha: string | null;
  branch: string | null;
  status: 'passed' | 'failed' | 'flaky';
}

/** One run's outcome for a test: its latest attempt's status, flaky when an attempt failed before a pass. */
interface RunOutcome {
  runNumber: number;
  createdAt: string;
  commitSha: string | null;
  status: 'passed' | 'failed' | 'flaky';
}

/** Collapses results into runs (the attempts rule: the latest attempt stands), newest run first. */
export function runOutcomes(results: readonly PastResult[]): RunOutcome[] {
  const byRun = new Map<number, PastResult[]>();
  for (const result of results) {
    const list = byRun.get(result.runNumber) ?? [];
    list.push(result);
    byRun.set(result.runNumber, list);
  }
  const outcomes: RunOutcome[] = [];
  for (const [runNumber, attempts] of byRun) {
    attempts.sort((a, b) => a.attempt - b.attempt || a.createdAt.localeCompare(b.createdAt));
    const latest = attempts.at(-1)!;
    const failedBefore = attempts.some((attempt) => attempt.status !== 'passed');
    const status =
      latest.status === 'passed' && (failedBefore || attempts.some((a) => a.status === 'flaky'))
        ? 'flaky'
        : latest.status;
    const first = attempts.reduce((a, b) => (a.createdAt <= b.createdAt ? a : b));
    outcomes.push({ runNumber, createdAt: first.createdAt, commitSha: latest.commitSha, status });
  }
  return outcomes.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.runNumber - a.runNumber);
}

/**
 * The latest default-branch run's result and, when it failed, when that failing streak began
 * (the oldest failing run before a pass). Null without history.
 */
export function defaultBranchStreak(
  results: readonly PastResult[],
): { latestFailed: boolean; since: string | null } | null {
  const runs = runOutcomes(results);
  if (runs.length === 0) return null;
  if (runs[0]!.status !== 'failed') return { latestFailed: false, since: null };
  let since = runs[0]!.createdAt;
  for (const run of runs) {
    if (run.status !== 'failed') break;
    since = run.createdAt;
  }
  return { latestFailed: true, since };
}

/**
 * Flaky runs ÷ runs: a run is flaky when the test passed in it only on a retry (or in a later
 * attempt), or when it failed on a commit it also passed on in another run.
 */
export function flakeOf(results: readonly PastResult[]): { rate: number; runs: number } | null {
  const runs = runOutcomes(results);
  if (runs.length === 0) return null;
  const passedOn = new Set<string>();
  const failedOn = new Set<string>();
  for (const run of runs) {
    if (!run.commitSha) continue;
    if (run.status === 'failed') failedOn.add(run.commitSha);
    else passedOn.add(run.commitSha);
  }
  const flaky = runs.filter(
    (run) =>
      run.status === 'flaky' ||
      (run.commitSha !== null && passedOn.has(run.commitSha) && failedOn.has(run.commitSha)),
  ).length;
  return { rate: flaky / runs.length, runs: runs.length };
}

/** The commit of the newest run (any branch) the test passed in. */
export function lastPassingCommit(results: readonly PastResult[]): string | null {
  return runOutcomes(results).find((run) => run.status !== 'failed' && run.commitSha)?.commitSha ?? null;
}
