import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ownBaseUrl } from '../../http/plumbing/own-base-url.js';
import { errorResponses } from '../../http/plumbing/schemas.js';
import { JobListResponse, JobNameParams, JobRunAccepted } from './jobs.schema.js';
import type { JobsService } from './jobs.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Scheduled jobs'];

export const jobsRoutes: FastifyPluginAsyncTypebox<{ service: JobsService }> = async (app, { service }) => {
  app.get(
    '/jobs',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'The four scheduled jobs: schedule, last run and result, next run',
        response: { 200: JobListResponse, ...errorResponses(401, 500) },
      },
    },
    async () => ({ success: true as const, data: await service.list() }),
  );

  app.post(
    '/jobs/:name/run',
    {
      schema: {
        tags,
        summary: 'Run a job now (202: started; GET /api/jobs then shows its result)',
        params: JobNameParams,
        response: { 202: JobRunAccepted, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request, reply) => {
      // The job calls back this very process (API_BASE_URL while it does not listen).
      const run = await service.runNow(request.params.name, ownBaseUrl(app.server.address()));
      return reply.status(202).send({ success: true as const, message: `Job ${run.job} started`, data: run });
    },
  );
};
