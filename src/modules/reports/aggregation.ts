import { addDays } from '../../shared/time.js';
import { epochOf } from './epoch-of.js';
import {
  createSpecAggregator,
  SPEC_ROW,
  type SpecAggregator,
  type SpecStat,
  withoutNul,
} from './spec-aggregation.js';
import { type AppReport, type ReportTotals, type RunState, summariseRuns, sumTotals } from './app-figures.js';

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

export interface Aggregate {
  totals: ReportTotals;
  /** One per app that had runs in the window, in the order the apps were given. */
  details: AppReport[];
  /** Ids of the apps that had no run in the window (so got no detail). */
  appsWithoutRuns: number[];
}

/** The 14-day window of a report date: `start_date` and `end_date` as sent to the service. */
export const REPORT_WINDOW_DAYS = 14;

export function reportWindow(date: string): { startDate: string; endDate: string } {
  return { startDate: addDays(date, -REPORT_WINDOW_DAYS), endDate: date };
}

interface ProjectState {
  runs: Map<number, RunState>;
  /** The run of the previous row: rows of a run mostly come together, so most need no lookup. */
  lastRun: RunState | undefined;
  lastRunNumber: number;
  /** Run number and commit author by run index. */
  runNumbers: number[];
  runAuthors: (string | undefined)[];
  /** The run's commit and link by run index: the first row of the run that names one. */
  runCommits: (string | undefined)[];
  runUrls: (string | undefined)[];
  specs: SpecAggregator;
}

/**
 * Run numbers and durations are stored in 32-bit integer columns: a value beyond that is not a
 * real run number or duration, and PostgreSQL would refuse the whole report over it.
 */
export const MAX_STORED_INTEGER = 2_147_483_647;

function runNumberOf(value: unknown): number | undefined {
  const number =
    typeof value === 'number' && Number.isSafeInteger(value)
      ? value
      : typeof value === 'string' && /^\d+$/.test(value.trim())
        ? Number(value.trim())
        : undefined;
  return number !== undefined && Math.abs(number) <= MAX_STORED_INTEGER ? number : undefined;
}

function normalised(value: unknown): string {
  // The statuses the service sends need no trimming or case folding (no new string per row).
  if (value === 'passed' || value === 'failed') return value;
  if (value === 'noTests') return 'notests';
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** Commit shas and run links are short: longer text is not one (and would not fit a link). */
const MAX_LINK_LENGTH = 2000;

/** A row's commit sha or run link, trimmed; undefined when it carries none. */
function linkOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_LINK_LENGTH) return undefined;
  // Once per run: a copy so the stored text does not keep the parser's chunk alive.
  return withoutNul(Buffer.from(trimmed, 'utf8').toString('utf8'));
}

/** Milliseconds of `spec_duration`, or NaN when the row carries no usable one. */
function durationOf(value: unknown): number {
  const duration =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(duration) && duration >= 0 && duration <= MAX_STORED_INTEGER ? duration : NaN;
}

/**
 * Folds rows one at a time so the caller can stream them: memory grows with the number of runs
 * and spec runs (a few bytes each), never with the size of the rows. Rows of an app are those
 * whose `project_name` equals its name; rows are grouped into runs by `run_number` (rows without
 * one are ignored); a run passed when every row whose status is not `noTests` is `passed`; rows
 * whose `created_at` falls outside the report window are ignored. Per spec, the same rules apply
 * to the spec's own rows of a run, except that `noTests` rows do not make a run at all.
 */
export function createAggregator(apps: readonly ReportedApp[], date: string) {
  const { startDate, endDate } = reportWindow(date);
  const windowStartMs = Date.parse(`${startDate}T00:00:00.000Z`);
  const windowEndMs = Date.parse(`${addDays(endDate, 1)}T00:00:00.000Z`);
  // One state per project name (apps sharing a name share it), keyed by our own strings.
  const projects = new Map<string, ProjectState>();
  for (const app of apps) {
    if (projects.has(app.name)) continue;
    projects.set(app.name, {
      runs: new Map(),
      lastRun: undefined,
      lastRunNumber: NaN,
      runNumbers: [],
      runAuthors: [],
      runCommits: [],
      runUrls: [],
      specs: createSpecAggregator(windowStartMs),
    });
  }
  let rowsSeen = 0;

  return {
    add(row: SpecRow): void {
      rowsSeen += 1;
      const project = typeof row.project_name === 'string' ? projects.get(row.project_name) : undefined;
      if (!project) return;
      const runNumber = runNumberOf(row.run_number);
      if (runNumber === undefined) return;
      const createdMs = epochOf(row.created_at);
      // NaN fails both comparisons, so rows without a readable instant are dropped here too.
      if (!(createdMs >= windowStartMs && createdMs < windowEndMs)) return;
      let run = runNumber === project.lastRunNumber ? project.lastRun : project.runs.get(runNumber);
      if (!run) {
        const index = project.runNumbers.push(runNumber) - 1;
        project.runAuthors.push(undefined);
        project.runCommits.push(undefined);
        project.runUrls.push(undefined);
        run = {
          index,
          passed: true,
          flaky: false,
          latestMs: createdMs,
          author: undefined,
          authorFromFailure: false,
        };
        project.runs.set(runNumber, run);
      }
      project.lastRun = run;
      project.lastRunNumber = runNumber;
      const status = normalised(row.status);
      const counted = status !== 'notests';
      const failed = counted && status !== 'passed';
      if (failed) run.passed = false;
      const flaky = typeof row.flaky_tests === 'number' ? row.flaky_tests > 0 : Number(row.flaky_tests) > 0;
      if (flaky) run.flaky = true;
      if (createdMs > run.latestMs) run.latestMs = createdMs;
      const author = typeof row.commit_author_name === 'string' ? row.commit_author_name : '';
      // A failing row's author wins over one taken from a passing row of the same run.
      if (counted && author !== '' && (run.author === undefined || (failed && !run.authorFromFailure))) {
        run.author = withoutNul(author.slice(0, 1) + author.slice(1));
        run.authorFromFailure = failed;
        project.runAuthors[run.index] = run.author;
      }
      if (project.runCommits[run.index] === undefined) project.runCommits[run.index] = linkOf(row.commit_sha);
      if (project.runUrls[run.index] === undefined) project.runUrls[run.index] = linkOf(row.run_url);
      if (typeof row.spec === 'string' && row.spec !== '') {
        const flags =
          (counted ? SPEC_ROW.counted : 0) | (failed ? SPEC_ROW.failed : 0) | (flaky ? SPEC_ROW.flaky : 0);
        project.specs.add(
          row.spec,
          run.index,
          createdMs - windowStartMs,
          flags,
          durationOf(row.spec_duration),
          author,
          runNumber,
          failed && typeof row.error_message === 'string' ? row.error_message : '',
        );
      }
    },

    get rowsSeen(): number {
      return rowsSeen;
    },

    finish(): Aggregate {
      const details: AppReport[] = [];
      const specsByName = new Map<string, SpecStat[]>();
      for (const app of apps) {
        const project = projects.get(app.name);
        if (!project || project.runs.size === 0) continue;
        let specs = specsByName.get(app.name);
        if (!specs) {
          specs = project.specs.finish(project.runNumbers, project.runAuthors, {
            commits: project.runCommits,
            urls: project.runUrls,
          });
          specsByName.set(app.name, specs);
        }
        details.push(summariseRuns(app.id, project.runs, date, specs));
      }
      const reported = new Set(details.map((detail) => detail.appId));
      const appsWithoutRuns = apps.filter((app) => !reported.has(app.id)).map((app) => app.id);
      return { totals: sumTotals(details), details, appsWithoutRuns };
    },
  };
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
