import { RUN_ERROR_SPEC } from './report-model.js';
import type { UploadedSpecRow, WindowUploadRow } from './test-results.repository.js';

/**
 * Runs whose uploads need more than one row at a time to be read right: a run re-run by the CI
 * (several attempts) and a run that crashed outside its tests. Most runs are neither, and their
 * rows go to the report as they are read.
 */
export interface SpecialRuns {
  /** Uploads of the special runs: their rows are left out of the plain pass. */
  uploadIds: Set<number>;
  runs: Map<string, SpecialRun>;
}

export interface SpecialRun {
  appId: number;
  runNumber: number;
  /** The run's highest attempt. */
  lastAttempt: number;
  /** First line of the first error of an errored upload of the last attempt, if one crashed. */
  crash: string | undefined;
  /** The upload that crashed (its run's time, commit and author go on the specs it left without a result). */
  crashedUpload: WindowUploadRow | undefined;
}

export const runKey = (appId: number, runNumber: number) => `${appId}:${runNumber}`;

function firstErrorLine(errors: string | null): string {
  try {
    const parsed = JSON.parse(errors ?? '[]') as { message?: unknown }[];
    const message = parsed.find((error) => typeof error?.message === 'string')?.message as string | undefined;
    const line = message?.split(/\r\n|\r|\n/).find((text) => text.trim() !== '');
    if (line) return line.trim();
  } catch {
    // A row written by hand or by an older version: still a crash, told plainly.
  }
  return 'The run errored outside its tests';
}

/** Picks the runs with several attempts or an errored upload from the window's uploads. */
export function findSpecialRuns(uploads: readonly WindowUploadRow[]): SpecialRuns {
  const byRun = new Map<string, WindowUploadRow[]>();
  for (const upload of uploads) {
    const key = runKey(upload.app_id, upload.run_number);
    const list = byRun.get(key);
    if (list) list.push(upload);
    else byRun.set(key, [upload]);
  }
  const special: SpecialRuns = { uploadIds: new Set(), runs: new Map() };
  for (const [key, list] of byRun) {
    const lastAttempt = Math.max(...list.map((upload) => upload.attempt));
    const several = list.some((upload) => upload.attempt !== lastAttempt);
    const crashed = list.find((upload) => upload.status === 'errored' && upload.attempt === lastAttempt);
    if (!several && !crashed) continue;
    for (const upload of list) special.uploadIds.add(upload.id);
    special.runs.set(key, {
      appId: list[0]!.app_id,
      runNumber: list[0]!.run_number,
      lastAttempt,
      crash: crashed ? firstErrorLine(crashed.errors) : undefined,
      crashedUpload: crashed,
    });
  }
  return special;
}

const failed = (row: UploadedSpecRow) => row.status !== 'passed' && row.status !== 'noTests';

/**
 * The rows that speak for a re-run run: each spec's rows of the highest attempt that holds it,
 * marked flaky when an earlier attempt failed it and the later one did not. The stand-in spec of
 * a crash outside any spec only counts when no later attempt ran.
 */
export function resolveAttempts(run: SpecialRun, rows: readonly UploadedSpecRow[]): UploadedSpecRow[] {
  const bySpec = new Map<string, UploadedSpecRow[]>();
  for (const row of rows) {
    const list = bySpec.get(row.spec);
    if (list) list.push(row);
    else bySpec.set(row.spec, [row]);
  }
  const resolved: UploadedSpecRow[] = [];
  for (const [spec, list] of bySpec) {
    const attempt = Math.max(...list.map((row) => row.attempt));
    if (spec === RUN_ERROR_SPEC && attempt !== run.lastAttempt) continue;
    const kept = list.filter((row) => row.attempt === attempt);
    const failedBefore = list.some((row) => row.attempt < attempt && failed(row));
    const failsNow = kept.some(failed);
    for (const row of kept) {
      resolved.push(failedBefore && !failsNow ? { ...row, flaky: Math.max(1, row.flaky) } : row);
    }
  }
  return resolved;
}

/**
 * The specs a crashed run left without a result: every spec the app ran in the window that this
 * run has no row for fails in it, with the crash's first line as its error.
 */
export function specsLeftByCrash(
  run: SpecialRun,
  resolved: readonly UploadedSpecRow[],
  knownSpecs: ReadonlySet<string>,
): UploadedSpecRow[] {
  const crashed = run.crashedUpload;
  if (run.crash === undefined || crashed === undefined) return [];
  const present = new Set(resolved.map((row) => row.spec));
  const rows: UploadedSpecRow[] = [];
  for (const spec of knownSpecs) {
    if (present.has(spec) || spec === RUN_ERROR_SPEC) continue;
    rows.push({
      id: 0,
      upload_id: crashed.id,
      app_id: crashed.app_id,
      run_number: crashed.run_number,
      attempt: crashed.attempt,
      created_at: crashed.created_at,
      author: crashed.author,
      triggered_by: crashed.triggered_by,
      commit_sha: crashed.commit_sha,
      run_url: crashed.run_url,
      spec,
      status: 'failed',
      flaky: 0,
      duration_ms: null,
      first_failure_message: run.crash,
    });
  }
  return rows;
}
