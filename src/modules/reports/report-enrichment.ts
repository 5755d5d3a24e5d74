import { todayUtc } from '../../shared/time.js';
import type { AppsRepository } from '../apps/apps.repository.js';
import { toApplicationDetails } from '../apps/apps.service.js';
import type { DetailRow, SummaryRow } from './report-rows.js';
import type { ReportsRepository } from './reports.repository.js';
import type { Enrichments, ReportDetail, ReportSummary } from './reports.schema.js';
import { appReferences, hasReadyVersion, toDetail, toLastReadySummary } from './summary-view.js';

/** The last ready version of a date while its current summary is pending or failed. */
export interface LastReady {
  summary: ReportSummary;
  details?: ReportDetail[];
}

export interface EnrichmentSources {
  repository: ReportsRepository;
  appsRepository: AppsRepository;
}

/** Details as the API shows them, with their application (and its manual runs of the date) when asked. */
export async function enrichDetails(
  { repository, appsRepository }: EnrichmentSources,
  rows: DetailRow[],
  date: string,
  enrichments: Enrichments,
): Promise<ReportDetail[]> {
  const details = rows.map(toDetail);
  if (!enrichments.includeAppInfo || details.length === 0) return details;
  const appIds = details.map((detail) => detail.appId);
  const [apps, stats, runs] = await Promise.all([
    appsRepository.findByIds(appIds),
    appsRepository.runStats(appIds, `${todayUtc()}T00:00:00.000Z`),
    enrichments.includeManualRuns ? repository.manualRunsOn(appIds, date) : Promise.resolve([]),
  ]);
  const appById = new Map(apps.map((app) => [app.id, app]));
  return details.map((detail) => {
    const app = appById.get(detail.appId);
    if (!app) return detail;
    const info: Record<string, unknown> = { ...toApplicationDetails(app, stats.get(app.id)) };
    if (enrichments.includeManualRuns) {
      info.manualRuns = runs
        .filter((run) => run.app_id === app.id)
        .map((run) => ({
          id: run.id,
          appId: run.app_id,
          pipelineId: run.pipeline_id,
          createdAt: run.created_at,
        }));
    }
    return { ...detail, app: info };
  });
}

/** `{lastReady}` when the row keeps an earlier ready version, enriched as a ready answer is. */
export async function lastReadyOf(
  sources: EnrichmentSources,
  row: SummaryRow,
  date: string,
  enrichments: Enrichments,
): Promise<{ lastReady?: LastReady }> {
  if (row.status === 'ready' || !hasReadyVersion(row)) return {};
  const summary = toLastReadySummary(row, await appReferences([row], sources.appsRepository));
  if (!enrichments.includeDetails) return { lastReady: { summary } };
  const details = await enrichDetails(
    sources,
    await sources.repository.listDetails(row.id),
    date,
    enrichments,
  );
  return { lastReady: { summary, details } };
}
