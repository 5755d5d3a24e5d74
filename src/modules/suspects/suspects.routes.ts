import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, IdParams, toId } from '../../http/plumbing/schemas.js';
import { SuspectsQuery, SuspectsResponse } from './suspects.schema.js';
import type { SuspectsService } from './suspects.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

export const suspectsRoutes: FastifyPluginAsyncTypebox<{ service: SuspectsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/apps/:id/suspects',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags: ['Applications'],
        summary:
          "The commits (and their pull requests) between a failing spec's last pass and its first failure",
        params: IdParams,
        querystring: SuspectsQuery,
        response: { 200: SuspectsResponse, ...errorResponses(400, 401, 404, 422, 500, 502) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.suspects(toId(request.params.id), request.query.date, request.query.spec),
    }),
  );
};
