import type { AppsRepository } from '../apps/apps.repository.js';
import type { DetailRow, SummaryRow } from './reports.repository.js';
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

export function toSummary(
  row: SummaryRow,
  apps: ReadonlyMap<number, AppReference> = new Map(),
): ReportSummary {
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
  };
}

/** Summaries with their apps without runs resolved to `{id, name, code}` in one query. */
export async function presentSummaries(
  rows: SummaryRow[],
  appsRepository: AppsRepository,
): Promise<ReportSummary[]> {
  const ids = [...new Set(rows.flatMap(appIdsWithoutRuns))];
  const apps = new Map(
    (await appsRepository.findByIds(ids)).map((app) => [
      app.id,
      { id: app.id, name: app.name, code: app.code },
    ]),
  );
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
