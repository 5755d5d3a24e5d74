import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { READ_ACCESS } from '../../http/auth/route-access.js';
import type { CachedRead } from '../../http/caching/http-caching.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, toId } from '../../http/plumbing/schemas.js';
import { DetailParams } from '../reports/reports.schema.js';
import type { TestsModule } from './tests.module.js';
import {
  TestListQuery,
  TestListResponse,
  TestPageQuery,
  TestPageResponse,
  TestParams,
} from './tests.schema.js';

const tags = ['Tests'];
// Tables each cached answer is read from.
const testTables: CachedRead = {
  tables: [
    'e2e_report_summaries',
    'apps',
    'test_result_uploads',
    'test_result_specs',
    'test_result_failures',
    'test_identities',
    'quarantines',
    'test_window_states',
  ],
};

/** Every test of an app's uploads: a report's tests, and one test's stored results. */
export const testsRoutes: FastifyPluginAsyncTypebox<TestsModule> = async (app, { service }) => {
  app.get(
    '/e2e_run_report/:summaryId/:appId/tests',
    {
      config: { responseCache: testTables, access: READ_ACCESS },
      schema: {
        tags,
        summary:
          "The tests of one application's uploaded runs in a report's window: failing first, then flaky, then by name",
        params: DetailParams,
        querystring: TestListQuery,
        response: { 200: TestListResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { spec, status, search } = request.query;
      const { items, total, retention } = await service.listForReport(
        toId(request.params.summaryId),
        toId(request.params.appId),
        { spec, status, search },
        page,
      );
      return { ...listResponse(items, total, page), retention };
    },
  );

  app.get(
    '/apps/:id/tests/:testId',
    {
      config: { responseCache: testTables, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Every stored result of one test of an application, newest first',
        params: TestParams,
        querystring: TestPageQuery,
        response: { 200: TestPageResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { test, total } = await service.testPage(toId(request.params.id), request.params.testId, page);
      return {
        success: true as const,
        data: test,
        ...(page.requested
          ? {
              pagination: {
                total,
                limit: page.limit,
                offset: page.offset,
                hasMore: page.offset + test.results.length < total,
              },
            }
          : {}),
      };
    },
  );
};
