import type { Broker } from '../../broker/broker.js';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { todayUtc } from '../../shared/time.js';
import type { AppsRepository } from '../apps/apps.repository.js';
import { enrichDetails, type LastReady, lastReadyOf } from './report-enrichment.js';
import { publishReportRequest } from './report-requests.js';
import type { SummaryFilter, SummaryRow } from './report-rows.js';
import { reportTrends } from './report-trends.js';
import type { ReportsRepository } from './reports.repository.js';
import type { Enrichments, ReportDetail, ReportSummary } from './reports.schema.js';
import { presentSummaries, progressOf, readyTimeOf, toDetail } from './summary-view.js';

export type RunReportResult =
  | { status: 200; summary: ReportSummary; details?: ReportDetail[]; lastReady?: LastReady }
  | { status: 202; summary: ReportSummary; details: []; message: string; lastReady?: LastReady };

export interface ReportsServiceDeps {
  reportsRepository: ReportsRepository;
  appsRepository: AppsRepository;
  broker: Broker;
  staleMs: number;
}

/** What the functions below share: the service's dependencies under the names they use. */
interface Reports {
  repository: ReportsRepository;
  appsRepository: AppsRepository;
  broker: Broker;
  staleMs: number;
}

const present = async (reports: Reports, row: SummaryRow) =>
  (await presentSummaries([row], reports.appsRepository))[0]!;

/** Publishes a request for the date; the broker being down is a 503 (nothing changed yet). */
async function requestGeneration(
  { broker, repository }: Reports,
  date: string,
  summary: SummaryRow | undefined,
): Promise<SummaryRow> {
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
  reports: Reports,
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
    ...(await lastReadyOf(reports, row, date, enrichments)),
  };
}

/** The 200 answer of a stored summary: a failed one (with its last ready version) or a ready one. */
async function storedResult(
  reports: Reports,
  summary: SummaryRow,
  date: string,
  enrichments: Enrichments,
): Promise<RunReportResult> {
  if (summary.status === 'failed') {
    return {
      status: 200,
      summary: await present(reports, summary),
      ...(enrichments.includeDetails ? { details: [] } : {}),
      ...(await lastReadyOf(reports, summary, date, enrichments)),
    };
  }
  if (!enrichments.includeDetails) return { status: 200, summary: await present(reports, summary) };
  const rows = await reports.repository.listDetails(summary.id);
  return {
    status: 200,
    summary: await present(reports, summary),
    details: await enrichDetails(reports, rows, date, enrichments),
  };
}

/**
 * 200 with a ready or failed report; 202 while one is generated (none yet, a stale pending one,
 * or `force`). Takes the parameters as the route schema decoded them.
 */
async function runReport(
  reports: Reports,
  query: { date?: string; force: boolean; enrichments: Enrichments },
): Promise<RunReportResult> {
  const { enrichments, force } = query;
  const date = query.date ?? todayUtc();
  const summary = await reports.repository.findSummaryByDate(date);
  const pending = (row: SummaryRow, message: string) =>
    pendingResult(reports, date, row, message, enrichments);
  if (!summary) {
    return pending(
      await requestGeneration(reports, date, undefined),
      'Report generation started; check again shortly',
    );
  }
  if (force) {
    const forced = await requestGeneration(reports, date, { ...summary, status: 'forced' });
    return pending(forced, 'Report regeneration started; check again shortly');
  }
  if (summary.status === 'pending') {
    if (Date.now() - Date.parse(summary.updated_at) > reports.staleMs) {
      const restarted = await requestGeneration(reports, date, summary);
      return pending(restarted, 'Report generation was stale and has been restarted; check again shortly');
    }
    return pending(summary, 'Report generation in progress; check again shortly');
  }
  return storedResult(reports, summary, date, enrichments);
}

async function detail(reports: Reports, summaryId: number, appId: number): Promise<ReportDetail> {
  const { repository } = reports;
  const [summary, appExists] = await Promise.all([
    repository.findSummaryById(summaryId),
    repository.appExists(appId),
  ]);
  if (!summary) throw new NotFoundError(`Report ${summaryId} not found`);
  if (!appExists) throw new NotFoundError(`Application ${appId} not found`);
  const found = await repository.findDetail(summaryId, appId);
  if (!found) throw new NotFoundError(`Report ${summaryId} has no detail for application ${appId}`);
  return toDetail(found);
}

async function listSummaries(reports: Reports, filter: SummaryFilter, page: Page) {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw ValidationError.single('from', 'INVALID_VALUE', '`from` must not be after `to`', filter.from);
  }
  const { rows, total } = await reports.repository.listSummaries(filter, page.limit, page.offset);
  return { items: await presentSummaries(rows, reports.appsRepository), total };
}

async function summaryOn(reports: Reports, date: string): Promise<SummaryRow> {
  const summary = await reports.repository.findSummaryByDate(date);
  if (!summary) throw new NotFoundError(`No report for ${date}`);
  return summary;
}

async function summaryWithDetails(reports: Reports, date: string) {
  const summary = await summaryOn(reports, date);
  const rows = await reports.repository.listDetails(summary.id);
  const details = await enrichDetails(reports, rows, date, {
    includeDetails: true,
    includeAppInfo: true,
    includeManualRuns: false,
  });
  return { summary: await present(reports, summary), details };
}

/** Report requests, summaries, details and trends over the reports and apps repositories. */
export function createReportsService(deps: ReportsServiceDeps) {
  const reports: Reports = {
    repository: deps.reportsRepository,
    appsRepository: deps.appsRepository,
    broker: deps.broker,
    staleMs: deps.staleMs,
  };
  return {
    runReport: (query: Parameters<typeof runReport>[1]) => runReport(reports, query),
    detail: (summaryId: number, appId: number) => detail(reports, summaryId, appId),
    listSummaries: (filter: SummaryFilter, page: Page) => listSummaries(reports, filter, page),
    summaryByDate: async (date: string): Promise<ReportSummary> =>
      present(reports, await summaryOn(reports, date)),
    summaryWithDetails: (date: string) => summaryWithDetails(reports, date),
    /** Daily success rate over the last `days` days (today included), overall and per app. */
    trends: (days: number) => reportTrends(reports.repository, days),
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
