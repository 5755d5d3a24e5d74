import { successRate } from '../../shared/rates.js';
import type { SpecStat } from './spec-aggregation.js';

// What the fold makes of an app's runs once every row is in: its figures over the window, over
// the report's day, and its last (failed) run.

export interface AppReport {
  appId: number;
  totalRuns: number;
  passedRuns: number;
  failedRuns: number;
  flakyRuns: number;
  successRate: number;
  lastRunStatus: 'passed' | 'failed';
  lastRunNumber: number;
  lastRunAt: string;
  lastFailedRunAt: string | null;
  /** The runs whose latest `created_at` falls on the report date. */
  day: DayFigures;
  /** Commit author of the highest-numbered failed run. */
  lastFailureAuthor: string | null;
  /** Specs that failed in the last run, by name (at most 10). */
  failingSpecs: string[];
  specs: SpecStat[];
}

export interface DayFigures {
  totalRuns: number;
  passedRuns: number;
  failedRuns: number;
}

export interface ReportTotals {
  totalRuns: number;
  passedRuns: number;
  failedRuns: number;
  successRate: number;
}

export interface RunState {
  /** Dense position of the run in its project (the spec aggregator's run key). */
  index: number;
  passed: boolean;
  flaky: boolean;
  /** Epoch ms of the run's latest row: numbers, so no row's text is kept. */
  latestMs: number;
  author: string | undefined;
  /** Whether `author` came from a failing row (it then names who broke the run). */
  authorFromFailure: boolean;
}

/** At most this many failing spec names travel with a failure notification. */
export const FAILING_SPECS_LIMIT = 10;

const DAY_MS = 86_400_000;
const isoOf = (epochMs: number) => new Date(epochMs).toISOString();

export function summariseRuns(
  appId: number,
  runs: Map<number, RunState>,
  date: string,
  specs: SpecStat[],
): AppReport {
  const day = { totalRuns: 0, passedRuns: 0, failedRuns: 0 };
  const dayStartMs = Date.parse(`${date}T00:00:00.000Z`);
  let passedRuns = 0;
  let flakyRuns = 0;
  let lastNumber = Number.NEGATIVE_INFINITY;
  let lastFailedNumber: number | undefined;
  for (const [runNumber, run] of runs) {
    if (run.passed) passedRuns += 1;
    else if (lastFailedNumber === undefined || runNumber > lastFailedNumber) lastFailedNumber = runNumber;
    if (run.flaky) flakyRuns += 1;
    if (runNumber > lastNumber) lastNumber = runNumber;
    if (run.latestMs >= dayStartMs && run.latestMs < dayStartMs + DAY_MS) {
      day.totalRuns += 1;
      if (run.passed) day.passedRuns += 1;
      else day.failedRuns += 1;
    }
  }
  const last = runs.get(lastNumber)!;
  const totalRuns = runs.size;
  return {
    appId,
    totalRuns,
    passedRuns,
    failedRuns: totalRuns - passedRuns,
    flakyRuns,
    successRate: successRate(passedRuns, totalRuns),
    lastRunStatus: last.passed ? 'passed' : 'failed',
    lastRunNumber: lastNumber,
    lastRunAt: isoOf(last.latestMs),
    lastFailedRunAt: lastFailedNumber !== undefined ? isoOf(runs.get(lastFailedNumber)!.latestMs) : null,
    day,
    lastFailureAuthor: lastFailedNumber !== undefined ? (runs.get(lastFailedNumber)!.author ?? null) : null,
    failingSpecs: specs
      .filter((spec) => spec.lastStatus === 'failed' && spec.lastRunNumber === lastNumber)
      .map((spec) => spec.spec)
      .sort()
      .slice(0, FAILING_SPECS_LIMIT),
    specs,
  };
}

export function sumTotals(details: readonly Pick<AppReport, 'totalRuns' | 'passedRuns' | 'failedRuns'>[]) {
  const totalRuns = details.reduce((sum, detail) => sum + detail.totalRuns, 0);
  const passedRuns = details.reduce((sum, detail) => sum + detail.passedRuns, 0);
  const failedRuns = details.reduce((sum, detail) => sum + detail.failedRuns, 0);
  return { totalRuns, passedRuns, failedRuns, successRate: successRate(passedRuns, totalRuns) };
}
