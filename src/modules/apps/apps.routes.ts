import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CachedRead } from '../../http/caching/http-caching.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, SuccessMessage, toId } from '../../http/plumbing/schemas.js';
import { requireSomeField } from '../../http/plumbing/validation.js';
import {
  AppListQuery,
  AppListResponse,
  AppResponse,
  CreateAppBody,
  RunsTodayResponse,
  UPDATABLE_APP_FIELDS,
  UpdateAppBody,
} from './apps.schema.js';
import type { AppsService } from './apps.service.js';
import type { RunsTodayService } from './runs-today.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Applications'];
// Answers carry each application's last manual run and today's run count.
const responseCache: CachedRead = { tables: ['apps', 'e2e_manual_runs'] };
// Runs today are counted from uploads, manual runs and today's report.
const runsTodayCache: CachedRead = {
  tables: ['apps', 'e2e_manual_runs', 'test_result_uploads', 'e2e_report_summaries', 'e2e_report_details'],
};

export const appsRoutes: FastifyPluginAsyncTypebox<{
  service: AppsService;
  runsToday: RunsTodayService;
}> = async (app, { service, runsToday }) => {
  app.get(
    '/apps',
    {
      config: { responseCache, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'List monitored applications with their last manual run',
        querystring: AppListQuery,
        response: { 200: AppListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page);
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/apps/runs_today',
    {
      config: { responseCache: runsTodayCache, access: READ_ACCESS },
      schema: {
        tags,
        summary:
          "Today's runs per application (CRON_TZ): CI runs from the app's results source, and manual runs apart",
        response: { 200: RunsTodayResponse, ...errorResponses(401, 500) },
      },
    },
    async () => ({ success: true as const, data: await runsToday.get() }),
  );

  app.get(
    '/apps/:id',
    {
      config: { responseCache, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One application',
        params: IdParams,
        response: { 200: AppResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.post(
    '/apps',
    {
      schema: {
        tags,
        summary: 'Create an application',
        body: CreateAppBody,
        response: { 201: AppResponse, ...errorResponses(400, 401, 409, 500) },
      },
    },
    async (request, reply) => {
      const data = await service.create(request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.put(
    '/apps/:id',
    {
      schema: {
        tags,
        summary: 'Change some fields of an application (only the given ones change)',
        params: IdParams,
        body: UpdateAppBody,
        response: { 200: AppResponse, ...errorResponses(400, 401, 404, 409, 500) },
      },
    },
    async (request) => {
      requireSomeField(request.body, UPDATABLE_APP_FIELDS);
      return { success: true as const, data: await service.update(toId(request.params.id), request.body) };
    },
  );

  app.delete(
    '/apps/:id',
    {
      schema: {
        tags,
        summary: 'Delete an application, its report details and its manual runs',
        params: IdParams,
        response: { 200: SuccessMessage, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const id = toId(request.params.id);
      await service.remove(id);
      return { success: true as const, message: `Application ${id} deleted` };
    },
  );
};
