import type { Broker } from '../../broker/broker.js';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { addDays, todayUtc } from '../../shared/time.js';
import type { AppsRepository } from '../apps/apps.repository.js';
import { toApplicationDetails } from '../apps/apps.service.js';
import { publishReportRequest } from './report-requests.js';
import type { DetailRow, SummaryFilter, SummaryRow } from './report-rows.js';
import type { ReportsRepository } from './reports.repository.js';
import type { Enrichments, ReportDetail, ReportSummary } from './reports.schema.js';
import type { TrendPoint } from './insight.schema.js';
import {
  appReferences,
  hasReadyVersion,
  presentSummaries,
  progressOf,
  readyTimeOf,
  toDetail,
  toLastReadySummary,
} from './summary-view.js';
import { successRate } from '../../shared/rates.js';

/** The last ready version of a date while its current summary is pending or failed. */
export interface LastReady {
  summary: ReportSummary;
  details?: ReportDetail[];
}

export type RunReportResult =
  | { status: 200; summary: ReportSummary; details?: ReportDetail[]; lastReady?: LastReady }
  | { status: 202; summary: ReportSummary; details: []; message: string; lastReady?: LastReady };

export interface ReportsServiceDeps {
  reportsRepository: ReportsRepository;
  appsRepository: AppsRepository;
  broker: Broker;
  staleMs: number;
}

export function createReportsService(deps: ReportsServiceDeps) {
  const { reportsRepository: repository, appsRepository, broker } = deps;
  const present = async (row: SummaryRow) => (await presentSummaries([row], appsRepository))[0]!;

  /** Publishes a request for the date; the broker being down is a 503 (nothing changed yet). */
  async function requestGeneration(date: string, summary: SummaryRow | undefined): Promise<SummaryRow> {
    try {
      await broker.ping();
    } catch {
      throw new ServiceUnavailableError(
        'The message broker is unavailable; the report cannot be generated now',
      );
    }
    const pending = summary?.status === 'pending' ? summary : await repository.markPending(date);
    try {
      await publishReportRequest(broker, date);
    } catch {
      // Backdated so that the next request (or the sweep at start) republishes at once.
      await repository.markStale(pending.id);
      throw new ServiceUnavailableError(
        'The message broker is unavailable; the report cannot be generated now',
      );
    }
    await repository.touchSummary(pending.id);
    return pending;
  }

  /** The contract's 202 answer (figures at zero), with the progress and the last ready version. */
  async function pendingResult(
    date: string,
    row: SummaryRow,
    message: string,
    enrichments: Enrichments,
  ): Promise<RunReportResult> {
    return {
      status: 202,
      summary: {
        id: row.id,
        date,
        status: 'pending',
        totalRuns: 0,
        passedRuns: 0,
        failedRuns: 0,
        successRate: 0,
        day: { totalRuns: 0, passedRuns: 0, failedRuns: 0 },
        appsWithoutRuns: [],
        lastReadyAt: readyTimeOf(row),
        ...progressOf({ ...row, status: 'pending' }),
      },
      details: [],
      message,
      ...(await lastReadyOf(row, date, enrichments)),
    };
  }

  /** `{lastReady}` when the row keeps an earlier ready version, enriched as a ready answer is. */
  async function lastReadyOf(
    row: SummaryRow,
    date: string,
    enrichments: Enrichments,
  ): Promise<{ lastReady?: LastReady }> {
    if (row.status === 'ready' || !hasReadyVersion(row)) return {};
    const summary = toLastReadySummary(row, await appReferences([row], appsRepository));
    if (!enrichments.includeDetails) return { lastReady: { summary } };
    const details = await enrichDetails(await repository.listDetails(row.id), date, enrichments);
    return { lastReady: { summary, details } };
  }

  async function enrichDetails(rows: DetailRow[], date: string, enrichments: Enrichments) {
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

  return {
    /**
     * 200 with a ready or failed report; 202 while one is generated (none yet, a stale pending one,
     * or `force`). Takes the parameters as the route schema decoded them.
     */
    async runReport(query: {
      date?: string;
      force: boolean;
      enrichments: Enrichments;
    }): Promise<RunReportResult> {
      const { enrichments, force } = query;
      const date = query.date ?? todayUtc();
      const summary = await repository.findSummaryByDate(date);
      if (!summary) {
        const created = await requestGeneration(date, undefined);
        return pendingResult(date, created, 'Report generation started; check again shortly', enrichments);
      }
      if (force) {
        const pending = await requestGeneration(date, { ...summary, status: 'forced' });
        return pendingResult(date, pending, 'Report regeneration started; check again shortly', enrichments);
      }
      if (summary.status === 'pending') {
        const age = Date.now() - Date.parse(summary.updated_at);
        if (age > deps.staleMs) {
          const pending = await requestGeneration(date, summary);
          return pendingResult(
            date,
            pending,
            'Report generation was stale and has been restarted; check again shortly',
            enrichments,
          );
        }
        return pendingResult(
          date,
          summary,
          'Report generation in progress; check again shortly',
          enrichments,
        );
      }
      if (summary.status === 'failed') {
        return {
          status: 200,
          summary: await present(summary),
          ...(enrichments.includeDetails ? { details: [] } : {}),
          ...(await lastReadyOf(summary, date, enrichments)),
        };
      }
      if (!enrichments.includeDetails) return { status: 200, summary: await present(summary) };
      const rows = await repository.listDetails(summary.id);
      return {
        status: 200,
        summary: await present(summary),
        details: await enrichDetails(rows, date, enrichments),
      };
    },

    async detail(summaryId: number, appId: number): Promise<ReportDetail> {
      const [summary, appExists] = await Promise.all([
        repository.findSummaryById(summaryId),
        repository.appExists(appId),
      ]);
      if (!summary) throw new NotFoundError(`Report ${summaryId} not found`);
      if (!appExists) throw new NotFoundError(`Application ${appId} not found`);
      const detail = await repository.findDetail(summaryId, appId);
      if (!detail) throw new NotFoundError(`Report ${summaryId} has no detail for application ${appId}`);
      return toDetail(detail);
    },

    async listSummaries(filter: SummaryFilter, page: Page) {
      if (filter.from && filter.to && filter.from > filter.to) {
        throw ValidationError.single('from', 'INVALID_VALUE', '`from` must not be after `to`', filter.from);
      }
      const { rows, total } = await repository.listSummaries(filter, page.limit, page.offset);
      return { items: await presentSummaries(rows, appsRepository), total };
    },

    async summaryByDate(date: string): Promise<ReportSummary> {
      const summary = await repository.findSummaryByDate(date);
      if (!summary) throw new NotFoundError(`No report for ${date}`);
      return present(summary);
    },

    async summaryWithDetails(date: string) {
      const summary = await repository.findSummaryByDate(date);
      if (!summary) throw new NotFoundError(`No report for ${date}`);
      const rows = await repository.listDetails(summary.id);
      const details = await enrichDetails(rows, date, {
        includeDetails: true,
        includeAppInfo: true,
        includeManualRuns: false,
      });
      return { summary: await present(summary), details };
    },

    /** Daily success rate over the last `days` days (today included), overall and per app. */
    async trends(days: number) {
      const to = todayUtc();
      const from = addDays(to, -(days - 1));
      const { summaries, details } = await repository.readyBetween(from, to);
      const dateOf = new Map(summaries.map((summary) => [summary.id, summary.date]));
      const overall: TrendPoint[] = summaries.map((summary) => ({
        date: summary.date,
        totalRuns: summary.total_runs,
        passedRuns: summary.passed_runs,
        failedRuns: summary.failed_runs,
        successRate: Number(summary.success_rate),
      }));
      const apps = new Map<number, { appId: number; appName: string; points: TrendPoint[] }>();
      for (const detail of details) {
        const entry = apps.get(detail.app_id) ?? {
          appId: detail.app_id,
          appName: detail.app_name,
          points: [],
        };
        apps.set(detail.app_id, entry);
        entry.points.push({
          date: dateOf.get(detail.report_summary_id)!,
          totalRuns: detail.total_runs,
          passedRuns: detail.passed_runs,
          failedRuns: detail.failed_runs,
          successRate: successRate(detail.passed_runs, detail.total_runs),
        });
      }
      for (const entry of apps.values()) entry.points.sort((a, b) => a.date.localeCompare(b.date));
      return { days, from, to, overall, apps: [...apps.values()] };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
