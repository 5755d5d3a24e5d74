import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses } from '../../http/plumbing/schemas.js';
import {
  CreateManualRunBody,
  ManualRunListQuery,
  ManualRunListResponse,
  ManualRunResponse,
} from './manual-runs.schema.js';
import type { ManualRunsService } from './manual-runs.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Manual E2E runs'];

export const manualRunsRoutes: FastifyPluginAsyncTypebox<{ service: ManualRunsService }> = async (
  app,
  { service },
) => {
  app.post(
    '/e2e_manual_runs',
    {
      schema: {
        tags,
        summary: "Trigger a manual E2E run: a CircleCI pipeline with the app's trigger branch and parameters",
        body: CreateManualRunBody,
        response: { 201: ManualRunResponse, ...errorResponses(400, 401, 404, 409, 422, 500, 502) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ success: true as const, data: await service.trigger(request.body.appId) }),
  );

  app.get(
    '/e2e_manual_runs',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Manual E2E runs, newest first (optionally of one app)',
        querystring: ManualRunListQuery,
        response: { 200: ManualRunListResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page, request.query.appId);
      return listResponse(items, total, page);
    },
  );
};
