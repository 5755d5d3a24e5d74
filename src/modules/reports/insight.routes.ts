import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CachedRead } from '../../http/caching/http-caching.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, toId } from '../../http/plumbing/schemas.js';
import type { InsightService } from './insight.service.js';
import { DateParams, DetailParams } from './reports.schema.js';
import { ChangesResponse, FailureGroupsResponse, SpecListQuery, SpecListResponse } from './insight.schema.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['E2E reports'];
// Tables each cached answer is read from.
const specTables: CachedRead = {
  tables: ['e2e_report_summaries', 'e2e_report_details', 'e2e_report_specs', 'apps', 'quarantines'],
};
const failureTables: CachedRead = {
  tables: ['e2e_report_summaries', 'apps', 'test_result_uploads', 'test_result_failures'],
};

/** Per-spec statistics of a report detail and the day-over-day changes. */
export const insightRoutes: FastifyPluginAsyncTypebox<{ service: InsightService }> = async (
  app,
  { service },
) => {
  app.get(
    '/e2e_run_report/:summaryId/:appId/specs',
    {
      config: { responseCache: specTables, access: READ_ACCESS },
      schema: {
        tags,
        summary:
          'Per-spec statistics of one application in a report: failing specs first, then failed runs, flaky runs, name',
        params: DetailParams,
        querystring: SpecListQuery,
        response: { 200: SpecListResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.specs(
        toId(request.params.summaryId),
        toId(request.params.appId),
        page,
      );
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/e2e_run_report/:summaryId/:appId/failure_groups',
    {
      config: { responseCache: failureTables, access: READ_ACCESS },
      schema: {
        tags,
        summary:
          "Failed tests of the application's uploaded runs in the report's window, grouped by the normalised first line of their message: most tests first",
        params: DetailParams,
        response: { 200: FailureGroupsResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.failureGroups(toId(request.params.summaryId), toId(request.params.appId)),
    }),
  );

  app.get(
    '/e2e_reports/:date/changes',
    {
      config: { responseCache: specTables, access: READ_ACCESS },
      schema: {
        tags,
        summary:
          'What changed since the day before: newly failing and recovered apps, new failing and fixed specs',
        params: DateParams,
        response: { 200: ChangesResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.changes(request.params.date) }),
  );
};
