import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, SuccessMessage, toId } from '../../http/plumbing/schemas.js';
import { requireSomeField } from '../../http/plumbing/validation.js';
import {
  CreatePullRequestBody,
  PullRequestDetailsResponse,
  PullRequestListQuery,
  PullRequestListResponse,
  PullRequestResponse,
  SyncResponse,
  UPDATABLE_PR_FIELDS,
  UpdatePullRequestBody,
} from './pull-requests.schema.js';
import type { PullRequestsService } from './pull-requests.service.js';
import type { PullRequestSync } from './pull-requests.sync.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Pull requests'];

export const pullRequestsRoutes: FastifyPluginAsyncTypebox<{
  service: PullRequestsService;
  sync: PullRequestSync;
}> = async (app, { service, sync }) => {
  app.get(
    '/pull_requests',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'List tracked pull requests (newest first unless sort/order say otherwise)',
        querystring: PullRequestListQuery,
        response: { 200: PullRequestListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page, request.query);
      return listResponse(items, total, page);
    },
  );

  app.post(
    '/pull_requests/sync',
    {
      schema: {
        tags,
        summary: 'Refresh every tracked pull request from GitHub and send due pr_update notifications',
        response: { 200: SyncResponse, ...errorResponses(401, 500) },
      },
    },
    async () => ({ success: true as const, data: await sync() }),
  );

  app.get(
    '/pull_requests/:id',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One tracked pull request with live GitHub details (scmDetails)',
        params: IdParams,
        response: { 200: PullRequestDetailsResponse, ...errorResponses(400, 401, 404, 500, 502) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.post(
    '/pull_requests',
    {
      schema: {
        tags,
        summary: 'Track a pull request by URL (title fetched from GitHub when absent)',
        body: CreatePullRequestBody,
        response: { 201: PullRequestResponse, ...errorResponses(400, 401, 409, 500, 502) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ success: true as const, data: await service.create(request.body) }),
  );

  app.put(
    '/pull_requests/:id',
    {
      schema: {
        tags,
        summary: 'Change the title or status of a tracked pull request',
        params: IdParams,
        body: UpdatePullRequestBody,
        response: { 200: PullRequestResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      requireSomeField(request.body, UPDATABLE_PR_FIELDS);
      return { success: true as const, data: await service.update(toId(request.params.id), request.body) };
    },
  );

  app.delete(
    '/pull_requests/:id',
    {
      schema: {
        tags,
        summary: 'Stop tracking a pull request',
        params: IdParams,
        response: { 200: SuccessMessage, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const id = toId(request.params.id);
      await service.remove(id);
      return { success: true as const, message: `Pull request ${id} is no longer tracked` };
    },
  );
};
