import { successRate } from '../../shared/rates.js';
import { cut, EXAMPLE_MAX_LENGTH, firstLine } from './failure-signature.js';
import { CellStore, COUNTED, FAILED, FLAKY, NONE } from './cell-store.js';

/** What a report keeps about one spec of one app over the report window. */
export interface SpecStat {
  spec: string;
  totalRuns: number;
  failedRuns: number;
  flakyRuns: number;
  successRate: number;
  lastStatus: 'passed' | 'failed';
  /** The run number of `lastStatus` (null when the spec has no counted run). */
  lastRunNumber: number | null;
  lastRunAt: string;
  lastFailedAt: string | null;
  failingSince: string | null;
  avgDurationMs: number | null;
  lastFailureAuthor: string | null;
  /** Why it fails: the spec's recent results, the runs and commits around its failing streak. */
  history: SpecResult[];
  lastRunUrl: string | null;
  lastFailedRunNumber: number | null;
  lastFailedRunUrl: string | null;
  firstFailedCommitSha: string | null;
  lastPassedCommitSha: string | null;
  lastError: { message: string } | null;
}

/**
 * One result of a spec in the report's window. The instant stays a number (epoch ms) until it is
 * read back: a report has ten per spec, and formatting them all would cost more than the fold.
 */
export interface SpecResult {
  runNumber: number;
  status: 'passed' | 'failed' | 'flaky';
  atMs: number;
}

/** A spec's history holds at most this many results (the newest). */
export const HISTORY_LENGTH = 10;

/** What the run of a spec row tells beyond its number and author (null when the rows said nothing). */
export interface RunLinks {
  commits: readonly (string | undefined)[];
  urls: readonly (string | undefined)[];
}

const NO_LINKS: RunLinks = { commits: [], urls: [] };

/** PostgreSQL text cannot hold NUL: names from the export are stored without it on both dialects. */
export const withoutNul = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

/** What a row says about its spec run: counted (not noTests), failed, flaky. */
export const SPEC_ROW = { counted: COUNTED, failed: FAILED, flaky: FLAKY } as const;

interface SpecState {
  /** The spec as the rows spell it (the map key) and as reported (without NUL). */
  key: string;
  name: string;
  /** The spec whose row followed this spec's last row: runs list their specs in a stable order. */
  successor: SpecState | undefined;
  head: number;
  /** Highest run index among its cells: a row of a newer run needs no search of the chain. */
  maxRunIndex: number;
  durationSum: number;
  durationCount: number;
  /**
   * The first failure line of the highest-numbered failed run that carried one: a spec keeps one
   * short line whatever the number of its runs (rows may come out of run order).
   */
  errorRunNumber: number;
  error: string | undefined;
}

/** A copy that does not keep the parser's chunk alive (V8 may slice strings out of it). */
const ownCopy = (value: string) => (value.length < 13 ? value : Buffer.from(value, 'utf8').toString('utf8'));

/**
 * Per-spec statistics of one project, fed row by row. Memory grows with the number of spec runs
 * (a few bytes each), never with the size of the rows.
 */
export function createSpecAggregator(windowStartMs: number) {
  const cells = new CellStore();
  const specs = new Map<string, SpecState>();
  let previous: SpecState | undefined;
  // Few distinct commit authors exist in a window: each name is stored once, cells keep its key.
  const authorKeys = new Map<string, number>();
  const authorNames: string[] = [];
  const authorKey = (author: string) => {
    let key = authorKeys.get(author);
    if (key === undefined) {
      const copy = ownCopy(author);
      key = authorNames.push(withoutNul(copy));
      authorKeys.set(copy, key);
    }
    return key;
  };

  function cellFor(state: SpecState, runIndex: number): number {
    if (runIndex > state.maxRunIndex) {
      state.maxRunIndex = runIndex;
      state.head = cells.add(runIndex, state.head);
      return state.head;
    }
    for (let id = state.head; id !== NONE; id = cells.nextOf(id)) {
      if (cells.runOf(id) === runIndex) return id;
    }
    state.head = cells.add(runIndex, state.head);
    return state.head;
  }

  /** Cells of a spec newest run first, counted ones only (sorted when rows came out of order). */
  function countedCells(state: SpecState, runNumbers: readonly number[]) {
    const counted: number[] = [];
    let ordered = true;
    let previousNumber = Infinity;
    let latestUncounted = 0;
    for (let id = state.head; id !== NONE; id = cells.nextOf(id)) {
      if (!(cells.flagsOf(id) & COUNTED)) {
        latestUncounted = Math.max(latestUncounted, cells.latestOf(id));
        continue;
      }
      const runNumber = runNumbers[cells.runOf(id)]!;
      if (runNumber > previousNumber) ordered = false;
      previousNumber = runNumber;
      counted.push(id);
    }
    // Chains are newest first, so rows that arrive in run order need no sort.
    if (!ordered) counted.sort((x, y) => runNumbers[cells.runOf(y)]! - runNumbers[cells.runOf(x)]!);
    return { counted, latestUncounted };
  }

  function summarise(
    state: SpecState,
    runNumbers: readonly number[],
    runAuthors: readonly (string | undefined)[],
    links: RunLinks,
    instant: (offsetMs: number) => string,
  ): SpecStat {
    const { counted, latestUncounted } = countedCells(state, runNumbers);
    let failedRuns = 0;
    let flakyRuns = 0;
    let lastFailed = NONE;
    let streakStart = NONE;
    let streakOpen = true;
    let lastPassed = NONE;
    for (const id of counted) {
      const flags = cells.flagsOf(id);
      if (flags & FLAKY) flakyRuns += 1;
      if (flags & FAILED) {
        failedRuns += 1;
        if (lastFailed === NONE) lastFailed = id;
        if (streakOpen) streakStart = id;
      } else {
        if (lastPassed === NONE) lastPassed = id;
        streakOpen = false;
      }
    }
    const last = counted.length > 0 ? counted[0]! : NONE;
    const lastFailing = last !== NONE && last === lastFailed;
    const totalRuns = counted.length;
    const ownAuthor = lastFailed === NONE ? 0 : cells.failureAuthorOf(lastFailed);
    const author =
      lastFailed === NONE
        ? undefined
        : ownAuthor !== 0
          ? authorNames[ownAuthor - 1]
          : runAuthors[cells.runOf(lastFailed)];
    const linkOf = (list: readonly (string | undefined)[], id: number) =>
      id === NONE ? null : (list[cells.runOf(id)] ?? null);
    const lastFailedRunNumber = lastFailed === NONE ? null : runNumbers[cells.runOf(lastFailed)]!;
    return {
      spec: state.name,
      totalRuns,
      failedRuns,
      flakyRuns,
      successRate: successRate(totalRuns - failedRuns, totalRuns),
      lastStatus: lastFailing ? 'failed' : 'passed',
      lastRunNumber: last === NONE ? null : runNumbers[cells.runOf(last)]!,
      lastRunAt: instant(last === NONE ? latestUncounted : cells.latestOf(last)),
      lastFailedAt: lastFailed === NONE ? null : instant(cells.latestOf(lastFailed)),
      failingSince: lastFailing ? instant(cells.earliestOf(streakStart)) : null,
      avgDurationMs: state.durationCount === 0 ? null : Math.round(state.durationSum / state.durationCount),
      lastFailureAuthor: author ?? null,
      history: historyOf(counted, runNumbers),
      lastRunUrl: linkOf(links.urls, last),
      lastFailedRunNumber,
      lastFailedRunUrl: linkOf(links.urls, lastFailed),
      firstFailedCommitSha: lastFailing ? linkOf(links.commits, streakStart) : null,
      lastPassedCommitSha: linkOf(links.commits, lastPassed),
      lastError:
        state.error !== undefined && state.errorRunNumber === lastFailedRunNumber
          ? { message: state.error }
          : null,
    };
  }

  /** The newest results (cells newest first), oldest first. */
  function historyOf(counted: readonly number[], runNumbers: readonly number[]): SpecResult[] {
    const results: SpecResult[] = [];
    for (let i = Math.min(counted.length, HISTORY_LENGTH) - 1; i >= 0; i -= 1) {
      const id = counted[i]!;
      const flags = cells.flagsOf(id);
      results.push({
        runNumber: runNumbers[cells.runOf(id)]!,
        status: flags & FAILED ? 'failed' : flags & FLAKY ? 'flaky' : 'passed',
        atMs: windowStartMs + cells.latestOf(id),
      });
    }
    return results;
  }

  return {
    /**
     * One row of `spec` in the project's run at `runIndex`; `offsetMs` counts from the window
     * start (15 days fit 32 bits); `flags` combines SPEC_ROW flags; `durationMs` is NaN when the
     * row carries none; `author` is the row's commit author (empty when none); `runNumber` and
     * `error` (the row's failure message, empty when none) give the spec's last error. Positional
     * arguments: no object per row on the hot path.
     */
    add(
      spec: string,
      runIndex: number,
      offsetMs: number,
      flags: number,
      durationMs: number,
      author: string,
      runNumber = 0,
      error = '',
    ): void {
      // Comparing with the predicted spec costs less than hashing the row's fresh string.
      const predicted = previous?.successor;
      let state = predicted !== undefined && predicted.key === spec ? predicted : specs.get(spec);
      if (!state) {
        const key = ownCopy(spec);
        state = {
          key,
          name: withoutNul(key),
          successor: undefined,
          head: NONE,
          maxRunIndex: -1,
          durationSum: 0,
          durationCount: 0,
          errorRunNumber: Number.NEGATIVE_INFINITY,
          error: undefined,
        };
        specs.set(key, state);
      }
      if (previous !== undefined) previous.successor = state;
      previous = state;
      const cell = cellFor(state, runIndex);
      cells.record(cell, offsetMs, flags);
      if (flags & FAILED && author !== '') cells.setFailureAuthor(cell, authorKey(author));
      // Only rows from uploads carry error text; the first failure line of a run is kept.
      if (error !== '' && flags & FAILED && runNumber > state.errorRunNumber) {
        const line = withoutNul(cut(firstLine(error), EXAMPLE_MAX_LENGTH));
        if (line !== '') {
          state.errorRunNumber = runNumber;
          state.error = ownCopy(line);
        }
      }
      if (flags & COUNTED && durationMs === durationMs) {
        state.durationSum += durationMs;
        state.durationCount += 1;
      }
    },

    /** Every spec's statistics, in the order of the specs endpoint. */
    finish(
      runNumbers: readonly number[],
      runAuthors: readonly (string | undefined)[],
      links: RunLinks = NO_LINKS,
    ): SpecStat[] {
      // Many specs share instants (one run's rows); formatting each once saves most Date objects.
      const formatted = new Map<number, string>();
      const instant = (offsetMs: number) => {
        let text = formatted.get(offsetMs);
        if (text === undefined) {
          text = new Date(windowStartMs + offsetMs).toISOString();
          formatted.set(offsetMs, text);
        }
        return text;
      };
      return [...specs.values()]
        .map((state) => summarise(state, runNumbers, runAuthors, links, instant))
        .sort(compareSpecStats);
    },
  };
}

export type SpecAggregator = ReturnType<typeof createSpecAggregator>;

/** Failing specs first, then most failed runs, most flaky runs, then by name. */
export function compareSpecStats(a: SpecStat, b: SpecStat): number {
  if (a.lastStatus !== b.lastStatus) return a.lastStatus === 'failed' ? -1 : 1;
  if (a.failedRuns !== b.failedRuns) return b.failedRuns - a.failedRuns;
  if (a.flakyRuns !== b.flakyRuns) return b.flakyRuns - a.flakyRuns;
  return a.spec < b.spec ? -1 : a.spec > b.spec ? 1 : 0;
}
