import type { AppsRepository } from '../apps/apps.repository.js';
import type { DetailRow, SummaryRow } from './report-rows.js';
import { MAX_ATTEMPTS } from './report-attempts.js';
import type { ReportDetail, ReportSummary } from './reports.schema.js';

type AppReference = ReportSummary['appsWithoutRuns'][number];

/** Ids stored as a JSON array when the report was generated; anything unreadable is none. */
function appIdsWithoutRuns(row: SummaryRow): number[] {
  if (!row.apps_without_runs) return [];
  try {
    const ids: unknown = JSON.parse(row.apps_without_runs);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

/** The time the figures on the row were generated, if the date was ever ready. */
export function readyTimeOf(row: SummaryRow): string | null {
  // A ready row always has one; the fallback only covers a row written without it.
  return row.ready_at ?? (row.status === 'ready' ? row.updated_at : null);
}

/** Whether the row holds the figures and details of a ready version (its own or the last one). */
export const hasReadyVersion = (row: SummaryRow) => readyTimeOf(row) !== null;

/**
 * Where the generation of a pending or failed summary stands. Ready summaries carry none of these
 * fields (docs/contract-notes.md, "Report state").
 */
export function progressOf(row: SummaryRow) {
  return {
    attempt: row.attempt ?? (row.status === 'failed' ? MAX_ATTEMPTS : 1),
    maxAttempts: MAX_ATTEMPTS,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastError: row.last_error,
    queuedAt: row.queued_at ?? row.updated_at,
  };
}

export function toSummary(
  row: SummaryRow,
  apps: ReadonlyMap<number, AppReference> = new Map(),
): ReportSummary {
  const summary = toFigures(row, apps);
  return row.status === 'ready' ? summary : { ...summary, ...progressOf(row) };
}

/** The last ready version kept on a pending or failed row, shaped as the ready summary it was. */
export function toLastReadySummary(
  row: SummaryRow,
  apps: ReadonlyMap<number, AppReference> = new Map(),
): ReportSummary {
  const readyAt = readyTimeOf(row);
  return {
    ...toFigures(row, apps),
    status: 'ready',
    updatedAt: readyAt ?? row.updated_at,
    lastReadyAt: readyAt,
  };
}

function toFigures(row: SummaryRow, apps: ReadonlyMap<number, AppReference>): ReportSummary {
  return {
    id: row.id,
    date: row.date,
    status: row.status as ReportSummary['status'],
    totalRuns: row.total_runs,
    passedRuns: row.passed_runs,
    failedRuns: row.failed_runs,
    successRate: Number(row.success_rate),
    day: { totalRuns: row.day_total_runs, passedRuns: row.day_passed_runs, failedRuns: row.day_failed_runs },
    // Apps deleted since the report was generated drop out of the list.
    appsWithoutRuns: appIdsWithoutRuns(row).flatMap((id) => {
      const app = apps.get(id);
      return app ? [app] : [];
    }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastReadyAt: readyTimeOf(row),
  };
}

/** The apps without runs of the rows, as `{id, name, code}`, in one query. */
export async function appReferences(
  rows: SummaryRow[],
  appsRepository: AppsRepository,
): Promise<Map<number, AppReference>> {
  const ids = [...new Set(rows.flatMap(appIdsWithoutRuns))];
  return new Map(
    (await appsRepository.findByIds(ids)).map((app) => [
      app.id,
      { id: app.id, name: app.name, code: app.code },
    ]),
  );
}

/** Summaries with their apps without runs resolved to `{id, name, code}` in one query. */
export async function presentSummaries(
  rows: SummaryRow[],
  appsRepository: AppsRepository,
): Promise<ReportSummary[]> {
  const apps = await appReferences(rows, appsRepository);
  return rows.map((row) => toSummary(row, apps));
}

export function toDetail(row: DetailRow): ReportDetail {
  return {
    id: row.id,
    reportSummaryId: row.report_summary_id,
    appId: row.app_id,
    totalRuns: row.total_runs,
    passedRuns: row.passed_runs,
    failedRuns: row.failed_runs,
    flakyRuns: row.flaky_runs,
    successRate: Number(row.success_rate),
    lastRunStatus: row.last_run_status as ReportDetail['lastRunStatus'],
    lastRunNumber: row.last_run_number,
    lastRunAt: row.last_run_at,
    lastFailedRunAt: row.last_failed_run_at,
    day: { totalRuns: row.day_total_runs, passedRuns: row.day_passed_runs, failedRuns: row.day_failed_runs },
  };
}
