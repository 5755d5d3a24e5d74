import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CachedRead } from '../../http/caching/http-caching.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, toId } from '../../http/plumbing/schemas.js';
import {
  DateParams,
  DeadLetterListResponse,
  DetailParams,
  DetailResponse,
  QueueStatusResponse,
  ReplayResponse,
  RunReportQuery,
  RunReportResponse,
  SummaryListQuery,
  SummaryListResponse,
  SummaryResponse,
  SummaryWithDetailsResponse,
} from './reports.schema.js';
import { TrendsQuery, TrendsResponse } from './insight.schema.js';
import type { ReportsService } from './reports.service.js';
import type { InsightService } from './insight.service.js';
import { insightRoutes } from './insight.routes.js';
import type { ReportQueueService } from './report-queue.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['E2E reports'];
const DEFAULT_TREND_DAYS = 14;
// Tables each cached answer is read from (application info and manual runs enrich the details).
// Summaries name their apps without runs, so app changes count too.
const summaries: CachedRead = { tables: ['e2e_report_summaries', 'apps'] };
const enriched: CachedRead = {
  tables: ['e2e_report_summaries', 'e2e_report_details', 'apps', 'e2e_manual_runs'],
};
const ALL_ENRICHMENTS = { includeDetails: true, includeAppInfo: true, includeManualRuns: true } as const;

export const reportsRoutes: FastifyPluginAsyncTypebox<{
  service: ReportsService;
  insight: InsightService;
  queue: ReportQueueService;
}> = async (app, { service, insight, queue }) => {
  await app.register(insightRoutes, { service: insight });

  app.get(
    '/e2e_run_report',
    {
      // Only 200 answers (ready or failed) are kept; a 202 while generating never is.
      config: { responseCache: enriched, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'The E2E report of a date: 200 when ready or failed, 202 while it is being generated',
        querystring: RunReportQuery,
        response: { 200: RunReportResponse, 202: RunReportResponse, ...errorResponses(400, 401, 500, 503) },
      },
    },
    async (request, reply) => {
      const { date, force = false, enrichments = ALL_ENRICHMENTS } = request.query;
      const result = await service.runReport({ ...(date ? { date } : {}), force, enrichments });
      const { status, ...body } = result;
      return reply.status(status).send({ success: true as const, ...body });
    },
  );

  app.get(
    '/e2e_run_report/:summaryId/:appId',
    {
      config: { responseCache: enriched, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One application detail of a report (without app info)',
        params: DetailParams,
        response: { 200: DetailResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.detail(toId(request.params.summaryId), toId(request.params.appId)),
    }),
  );

  app.get(
    '/e2e_reports',
    {
      config: { responseCache: summaries, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Report summaries, newest first (filters status, from, to)',
        querystring: SummaryListQuery,
        response: { 200: SummaryListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { status, from, to } = request.query;
      const { items, total } = await service.listSummaries(
        {
          ...(status ? { status: status as 'pending' | 'ready' | 'failed' } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
        },
        page,
      );
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/e2e_reports/trends',
    {
      config: { responseCache: enriched, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Daily success rate over the last N days (N ≤ 90, default 14), overall and per app',
        querystring: TrendsQuery,
        response: { 200: TrendsResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.trends(request.query.days ?? DEFAULT_TREND_DAYS),
    }),
  );

  app.get(
    '/e2e_reports/queue',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Report queue status: waiting, in flight, scheduled retries, dead letters, oldest age',
        response: { 200: QueueStatusResponse, ...errorResponses(401, 500, 503) },
      },
    },
    async () => ({ success: true as const, data: await queue.queueStatus() }),
  );

  app.get(
    '/e2e_reports/dead_letter',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Dead-lettered report requests, newest first (at most 100)',
        response: { 200: DeadLetterListResponse, ...errorResponses(401, 500, 503) },
      },
    },
    async () => ({ success: true as const, data: await queue.deadLetters(100) }),
  );

  app.post(
    '/e2e_reports/dead_letter/replay',
    {
      schema: {
        tags,
        summary: 'Re-enqueue every dead-lettered report request',
        response: { 200: ReplayResponse, ...errorResponses(401, 500, 503) },
      },
    },
    async () => {
      const replayed = await queue.replayDeadLetters();
      return {
        success: true as const,
        message: `Replayed ${replayed} dead-lettered requests`,
        data: { replayed },
      };
    },
  );

  app.get(
    '/e2e_reports/:date',
    {
      config: { responseCache: summaries, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'The report summary of a date',
        params: DateParams,
        response: { 200: SummaryResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.summaryByDate(request.params.date) }),
  );

  app.get(
    '/e2e_reports/:date/details',
    {
      config: { responseCache: enriched, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'The report summary of a date with its details (app info included)',
        params: DateParams,
        response: { 200: SummaryWithDetailsResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.summaryWithDetails(request.params.date),
    }),
  );
};
