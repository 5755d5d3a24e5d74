import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteAccess } from '../../http/auth/route-access.js';
import { errorResponses } from '../../http/plumbing/schemas.js';
import type { RunPageService } from './run-page.service.js';
import { RunDetailsResponse, RunParams, VerdictResponse } from './verdict.schema.js';
import type { VerdictService } from './verdict.service.js';

/** Read keys, and upload keys (the CI gate) held to their applications by the path's id. */
const VERDICT_ACCESS: RouteAccess = Object.freeze({
  scopes: Object.freeze(['read', 'upload'] as const),
  uploadApps: Object.freeze({ query: 'id', by: 'id', in: 'params' } as const),
});

const tags = ['Runs'];

export const verdictRoutes: FastifyPluginAsyncTypebox<{
  service: VerdictService;
  runPage: RunPageService;
}> = async (app, { service, runPage }) => {
  app.get(
    '/apps/:id/runs/:runNumber/verdict',
    {
      config: { access: VERDICT_ACCESS },
      schema: {
        tags,
        summary:
          "A run's verdict: each failing test classed as quarantined, known flaky, failing on the default branch or new (with suspects)",
        params: RunParams,
        response: { 200: VerdictResponse, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.verdict(Number(request.params.id), Number(request.params.runNumber)),
    }),
  );

  app.get(
    '/apps/:id/runs/:runNumber',
    {
      config: { access: VERDICT_ACCESS },
      schema: {
        tags,
        summary: "A run for its page: the verdict, the run's totals and links, and its pull-request feedback",
        params: RunParams,
        response: { 200: RunDetailsResponse, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await runPage.details(Number(request.params.id), Number(request.params.runNumber)),
    }),
  );
};
