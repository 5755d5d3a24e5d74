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

/** The counts and rates of a test's runs, the same whether its runs are named or compact. */
interface RunFigures {
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
}

/** A test's figures over the runs of a window. */
export interface TestStats extends RunFigures {
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

/**
 * Whether each result is a run of its own, already in time order: run numbers rising and times
 * never falling, as a window's results of one test usually come. Grouping and sorting them would
 * give the same outcomes in the same order.
 */
function oneRunEachInOrder(results: readonly ResultOfRun[]): boolean {
  for (let index = 1; index < results.length; index++) {
    const [before, result] = [results[index - 1]!, results[index]!];
    if (result.runNumber <= before.runNumber || result.at < before.at) return false;
  }
  return true;
}

/** The outcome of each run, in time order. */
function outcomesByRun(results: readonly ResultOfRun[]): RunOutcome[] {
  // Most runs hold one result: kept as is, an array only from a run's second result on.
  const byRun = new Map<number, ResultOfRun | ResultOfRun[]>();
  for (const result of results) {
    const held = byRun.get(result.runNumber);
    if (held === undefined) byRun.set(result.runNumber, result);
    else if (Array.isArray(held)) held.push(result);
    else byRun.set(result.runNumber, [held, result]);
  }
  const outcomes: RunOutcome[] = [];
  for (const held of byRun.values())
    outcomes.push(Array.isArray(held) ? outcomeOfRun(held) : outcomeOfOne(held));
  return outcomes.sort((a, b) => byTime(a.final, b.final));
}

/** outcomeOfRun of a run with a single result. */
function outcomeOfOne(final: ResultOfRun): RunOutcome {
  const kind = final.status === 'flaky' ? 'retry' : null;
  return { runNumber: final.runNumber, final, status: final.status, kind };
}

/** Failed runs on a commit that another run passed: flaky on the same commit. */
function sameCommitFailures(outcomes: readonly RunOutcome[]): Set<RunOutcome> {
  // Most tests never failed in a window: nothing to look up.
  if (!outcomes.some((run) => run.status === 'failed' && run.final.commitSha !== null)) return new Set();
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

/**
 * The 90th percentile (nearest rank) of some durations: the value a sort would put at that rank,
 * found by selection instead (a window's tests hold hundreds of durations each).
 */
function percentile90(values: readonly number[]): number {
  const items = Float64Array.from(values);
  const rank = Math.max(0, Math.ceil(0.9 * items.length) - 1);
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const pivot = items[(low + high) >>> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (items[i]! < pivot) i++;
      while (items[j]! > pivot) j--;
      if (i <= j) {
        const swap = items[i]!;
        items[i++] = items[j]!;
        items[j--] = swap;
      }
    }
    if (rank <= j) high = j;
    else if (rank >= i) low = i;
    else break;
  }
  return items[rank]!;
}

/** What the figures say of a run, read from the upload that decided it. */
export interface RunOfUpload {
  runNumber: number;
  attempt: number;
  at: string;
  commitSha: string | null;
  runUrl: string | null;
}

/**
 * A test's figures with each run named by the id of its deciding upload instead of what that
 * upload says (number, time, commit, link): a few numbers a test, stored once per report.
 */
export interface CompactStats extends RunFigures {
  lastUploadId: number;
  failingSinceUploadId: number | null;
  history: { uploadId: number; status: PackedStatus; durationMs: number }[];
  flakyEvidence: { uploadId: number; kind: FlakyKind }[];
  lastFailedUploadId: number | null;
  isFlaky: boolean;
}

/** The figures of one test over its results (any order), runs by upload id; undefined without results. */
export function compactStatsOf(results: readonly ResultOfRun[]): CompactStats | undefined {
  if (results.length === 0) return undefined;
  const outcomes = oneRunEachInOrder(results) ? results.map(outcomeOfOne) : outcomesByRun(results);
  const sameCommit = sameCommitFailures(outcomes);
  const tally = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
  const durations: number[] = [];
  for (const run of outcomes) {
    tally[run.status] += 1;
    if (run.status !== 'skipped') durations.push(run.final.durationMs);
  }
  const { passed, failed, flaky, skipped } = tally;
  const last = outcomes.at(-1)!;
  let streakStart: RunOutcome | undefined;
  for (let index = outcomes.length - 1; index >= 0 && outcomes[index]!.status === 'failed'; index--) {
    streakStart = outcomes[index];
  }
  const evidence = outcomes
    .filter((run) => run.kind !== null || sameCommit.has(run))
    .map((run) => ({ uploadId: run.final.uploadId, kind: run.kind ?? ('same_commit' as const) }));
  const lastFailed = results
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
    lastUploadId: last.final.uploadId,
    failingSinceUploadId: streakStart ? streakStart.final.uploadId : null,
    history: outcomes.slice(-HISTORY_LENGTH).map((run) => ({
      uploadId: run.final.uploadId,
      status: run.status,
      durationMs: run.final.durationMs,
    })),
    flakyEvidence: evidence.reverse().slice(0, EVIDENCE_LENGTH),
    lastFailedUploadId: lastFailed?.uploadId ?? null,
    isFlaky: evidence.length > 0,
  };
}

/** The figures as the API gives them, each upload id replaced by what its upload says of the run. */
export function expandStats(compact: CompactStats, runOf: (uploadId: number) => RunOfUpload): TestStats {
  const last = runOf(compact.lastUploadId);
  const { lastUploadId: _last, failingSinceUploadId, history, flakyEvidence, ...figures } = compact;
  return {
    ...figures,
    lastRunNumber: last.runNumber,
    lastRunUrl: last.runUrl,
    failingSince: failingSinceUploadId === null ? null : runOf(failingSinceUploadId).at,
    history: history.map(({ uploadId, status, durationMs }) => {
      const run = runOf(uploadId);
      return { runNumber: run.runNumber, attempt: run.attempt, status, at: run.at, durationMs };
    }),
    flakyEvidence: flakyEvidence.map(({ uploadId, kind }) => {
      const run = runOf(uploadId);
      return { runNumber: run.runNumber, runUrl: run.runUrl, commitSha: run.commitSha, kind };
    }),
  };
}

/** The statistics of one test over its results (any order); undefined without results. */
export function statsOf(results: readonly ResultOfRun[]): TestStats | undefined {
  const compact = compactStatsOf(results);
  if (!compact) return undefined;
  const runs = new Map(results.map((result) => [result.uploadId, result]));
  return expandStats(compact, (uploadId) => runs.get(uploadId)!);
}
