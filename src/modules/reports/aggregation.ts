import { successRate } from '../../shared/rates.js';
import { addDays } from '../../shared/time.js';

/** One row of the test-results service's `spec-details` report (the fields we use). */
export interface SpecRow {
  project_name?: unknown;
  run_number?: unknown;
  created_at?: unknown;
  status?: unknown;
  flaky_tests?: unknown;
  [field: string]: unknown;
}

export interface ReportedApp {
  id: number;
  name: string;
}

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
}

export interface ReportTotals {
  totalRuns: number;
  passedRuns: number;
  failedRuns: number;
  successRate: number;
}

export interface Aggregate {
  totals: ReportTotals;
  /** One per app that had runs in the window, in the order the apps were given. */
  details: AppReport[];
}

/** The 14-day window of a report date: `start_date` and `end_date` as sent to the service. */
export const REPORT_WINDOW_DAYS = 14;

export function reportWindow(date: string): { startDate: string; endDate: string } {
  return { startDate: addDays(date, -REPORT_WINDOW_DAYS), endDate: date };
}

interface RunState {
  passed: boolean;
  flaky: boolean;
  latestAt: string;
}

function runNumberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** The canonical form compares correctly as text; anything else goes through Date. */
const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function instantOf(value: unknown): string | undefined {
  // Fast path: the service sends this form, and parsing every row through Date costs more
  // than the rest of the fold together.
  if (typeof value === 'string' && CANONICAL_INSTANT.test(value)) {
    // A copy made of two short slices: a string cut out of the parser's buffer would otherwise
    // keep that whole chunk alive for as long as a run state holds it (V8 sliced strings).
    return value.slice(0, 12) + value.slice(12);
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

const normalised = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '');

/**
 * Folds rows one at a time so the caller can stream them: memory grows with the number of runs,
 * never with the number of rows. Rules of decisions §11: rows of an app are those whose
 * `project_name` equals its name; rows are grouped into runs by `run_number` (rows without one are
 * ignored); a run passed when every row whose status is not `noTests` is `passed`; rows whose
 * `created_at` falls outside the report window are ignored.
 */
export function createAggregator(apps: readonly ReportedApp[], date: string) {
  const { startDate, endDate } = reportWindow(date);
  const windowStart = `${startDate}T00:00:00.000Z`;
  const windowEnd = `${addDays(endDate, 1)}T00:00:00.000Z`;
  const appsByName = new Map<string, ReportedApp[]>();
  for (const app of apps) appsByName.set(app.name, [...(appsByName.get(app.name) ?? []), app]);
  const runsByName = new Map<string, Map<number, RunState>>();
  let rowsSeen = 0;

  return {
    add(row: SpecRow): void {
      rowsSeen += 1;
      if (typeof row.project_name !== 'string' || !appsByName.has(row.project_name)) return;
      const runNumber = runNumberOf(row.run_number);
      const createdAt = instantOf(row.created_at);
      if (runNumber === undefined || createdAt === undefined) return;
      if (createdAt < windowStart || createdAt >= windowEnd) return;
      let runs = runsByName.get(row.project_name);
      if (!runs) {
        runs = new Map<number, RunState>();
        // Keyed by our own copy of the name, not the parsed one (same reason as above).
        runsByName.set(appsByName.get(row.project_name)![0]!.name, runs);
      }
      const run = runs.get(runNumber) ?? { passed: true, flaky: false, latestAt: createdAt };
      runs.set(runNumber, run);
      const status = normalised(row.status);
      if (status !== 'notests' && status !== 'passed') run.passed = false;
      if (typeof row.flaky_tests === 'number' ? row.flaky_tests > 0 : Number(row.flaky_tests) > 0) {
        run.flaky = true;
      }
      if (createdAt > run.latestAt) run.latestAt = createdAt;
    },

    get rowsSeen(): number {
      return rowsSeen;
    },

    finish(): Aggregate {
      const details: AppReport[] = [];
      for (const app of apps) {
        const runs = runsByName.get(app.name);
        if (!runs || runs.size === 0) continue;
        details.push(summariseRuns(app.id, runs));
      }
      return { totals: sumTotals(details), details };
    },
  };
}

function summariseRuns(appId: number, runs: Map<number, RunState>): AppReport {
  let passedRuns = 0;
  let flakyRuns = 0;
  let lastNumber = Number.NEGATIVE_INFINITY;
  let lastFailedNumber: number | undefined;
  for (const [runNumber, run] of runs) {
    if (run.passed) passedRuns += 1;
    else if (lastFailedNumber === undefined || runNumber > lastFailedNumber) lastFailedNumber = runNumber;
    if (run.flaky) flakyRuns += 1;
    if (runNumber > lastNumber) lastNumber = runNumber;
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
    lastRunAt: last.latestAt,
    lastFailedRunAt: lastFailedNumber !== undefined ? runs.get(lastFailedNumber)!.latestAt : null,
  };
}

export function sumTotals(details: readonly Pick<AppReport, 'totalRuns' | 'passedRuns' | 'failedRuns'>[]) {
  const totalRuns = details.reduce((sum, detail) => sum + detail.totalRuns, 0);
  const passedRuns = details.reduce((sum, detail) => sum + detail.passedRuns, 0);
  const failedRuns = details.reduce((sum, detail) => sum + detail.failedRuns, 0);
  return { totalRuns, passedRuns, failedRuns, successRate: successRate(passedRuns, totalRuns) };
}

/** The whole fold over an in-memory list (tests, small inputs). */
export function aggregateRows(
  apps: readonly ReportedApp[],
  rows: Iterable<SpecRow>,
  date: string,
): Aggregate {
  const aggregator = createAggregator(apps, date);
  for (const row of rows) aggregator.add(row);
  return aggregator.finish();
}
