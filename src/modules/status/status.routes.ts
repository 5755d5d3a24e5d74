import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/plumbing/schemas.js';
import { StatusResponse } from './status.schema.js';
import type { StatusService } from './status.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

export const statusRoutes: FastifyPluginAsyncTypebox<{ service: StatusService }> = async (
  app,
  { service },
) => {
  app.get(
    '/status',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags: ['Status'],
        summary:
          'Version, roles, database and broker, what each integration still needs and when it last worked, and the jobs',
        response: { 200: StatusResponse, ...errorResponses(401, 500) },
      },
    },
    async () => ({ success: true as const, data: await service.get() }),
  );
};
