import type { PackedStatus } from './result-pack.js';

/** One stored result of a test, as the statistics need it. */
export interface ResultOfRun {
  uploadId: number;
  runNumber: number;
  attempt: number;
  status: PackedStatus;
  durationMs: number;
  at: string;
  commitSha: string | null;
  runUrl: string | null;
}

export type FlakyKind = 'retry' | 'same_commit';

export interface FlakyEvidence {
  runNumber: number;
  runUrl: string | null;
  commitSha: string | null;
  kind: FlakyKind;
}

export interface TestRunPoint {
  runNumber: number;
  attempt: number;
  status: PackedStatus;
  at: string;
  durationMs: number;
}

/** A test's figures over the runs of a window. */
export interface TestStats {
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  passRate: number;
  flakeRate: number;
  avgDurationMs: number | null;
  p90DurationMs: number | null;
  lastStatus: PackedStatus;
  lastRunNumber: number;
  lastRunUrl: string | null;
  failingSince: string | null;
  history: TestRunPoint[];
  flakyEvidence: FlakyEvidence[];
  /** The upload of the latest failed result (its error is the test's `lastError`). */
  lastFailedUploadId: number | null;
  /** Whether any run is flaky (by retry, attempts or the same commit). */
  isFlaky: boolean;
}

export const HISTORY_LENGTH = 20;
export const EVIDENCE_LENGTH = 5;

interface RunOutcome {
  runNumber: number;
  final: ResultOfRun;
  status: PackedStatus;
  kind: FlakyKind | null;
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);
const byTime = (a: { at: string; runNumber: number }, b: { at: string; runNumber: number }) =>
  a.at === b.at ? a.runNumber - b.runNumber : a.at < b.at ? -1 : 1;

/**
 * A run's outcome for one test: its latest attempt's result (a failure among several shards of
 * that attempt wins). Passed on a retry (Playwright's `flaky`) is flaky by retry; failed in an
 * earlier attempt then passed is flaky on the same commit (an attempt re-runs the same commit).
 */
function outcomeOfRun(results: readonly ResultOfRun[]): RunOutcome {
  const latest = Math.max(...results.map((result) => result.attempt));
  const finals = results.filter((result) => result.attempt === latest);
  const final = finals.find((result) => result.status === 'failed') ?? finals.at(-1)!;
  const failedBefore = results.some((result) => result.attempt < latest && result.status === 'failed');
  if (final.status === 'flaky') return { runNumber: final.runNumber, final, status: 'flaky', kind: 'retry' };
  if (final.status === 'passed' && failedBefore) {
    return { runNumber: final.runNumber, final, status: 'flaky', kind: 'same_commit' };
  }
  return { runNumber: final.runNumber, final, status: final.status, kind: null };
}

/** Failed runs on a commit that another run passed: flaky on the same commit. */
function sameCommitFailures(outcomes: readonly RunOutcome[]): Set<RunOutcome> {
  const passedCommits = new Set(
    outcomes
      .filter((run) => run.status === 'passed' || run.status === 'flaky')
      .map((run) => run.final.commitSha)
      .filter((sha): sha is string => sha !== null),
  );
  return new Set(
    outcomes.filter(
      (run) =>
        run.status === 'failed' && run.final.commitSha !== null && passedCommits.has(run.final.commitSha),
    ),
  );
}

const percentile90 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.9 * sorted.length) - 1)]!;
};

/** The statistics of one test over its results (any order); undefined without results. */
export function statsOf(results: readonly ResultOfRun[]): TestStats | undefined {
  if (results.length === 0) return undefined;
  const byRun = new Map<number, ResultOfRun[]>();
  for (const result of results) {
    const list = byRun.get(result.runNumber);
    if (list) list.push(result);
    else byRun.set(result.runNumber, [result]);
  }
  const outcomes = [...byRun.values()].map(outcomeOfRun).sort((a, b) => byTime(a.final, b.final));
  const sameCommit = sameCommitFailures(outcomes);
  const count = (status: PackedStatus) => outcomes.filter((run) => run.status === status).length;
  const [passed, failed, flaky, skipped] = [
    count('passed'),
    count('failed'),
    count('flaky'),
    count('skipped'),
  ];
  const durations = outcomes.filter((run) => run.status !== 'skipped').map((run) => run.final.durationMs);
  const last = outcomes.at(-1)!;
  let streakStart: RunOutcome | undefined;
  for (let index = outcomes.length - 1; index >= 0 && outcomes[index]!.status === 'failed'; index--) {
    streakStart = outcomes[index];
  }
  const evidence: FlakyEvidence[] = outcomes
    .filter((run) => run.kind !== null || sameCommit.has(run))
    .map((run) => ({
      runNumber: run.runNumber,
      runUrl: run.final.runUrl,
      commitSha: run.final.commitSha,
      kind: run.kind ?? 'same_commit',
    }));
  const lastFailed = [...results]
    .filter((result) => result.status === 'failed')
    .sort(byTime)
    .at(-1);
  return {
    runs: outcomes.length,
    passed,
    failed,
    flaky,
    skipped,
    passRate: ratio(passed + flaky, outcomes.length - skipped),
    flakeRate: ratio(flaky + sameCommit.size, outcomes.length),
    avgDurationMs: durations.length
      ? Math.round(durations.reduce((a, b) => a + b, 0) / durations.length)
      : null,
    p90DurationMs: durations.length ? percentile90(durations) : null,
    lastStatus: last.status,
    lastRunNumber: last.runNumber,
    lastRunUrl: last.final.runUrl,
    failingSince: streakStart ? streakStart.final.at : null,
    history: outcomes.slice(-HISTORY_LENGTH).map((run) => ({
      runNumber: run.runNumber,
      attempt: run.final.attempt,
      status: run.status,
      at: run.final.at,
      durationMs: run.final.durationMs,
    })),
    flakyEvidence: evidence.reverse().slice(0, EVIDENCE_LENGTH),
    lastFailedUploadId: lastFailed?.uploadId ?? null,
    isFlaky: evidence.length > 0,
  };
}
