import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, SuccessMessage, toId } from '../../http/plumbing/schemas.js';
import { requireSomeField } from '../../http/plumbing/validation.js';
import {
  CreateWebhookBody,
  DeliveryListResponse,
  TestDeliveryResponse,
  UPDATABLE_WEBHOOK_FIELDS,
  UpdateWebhookBody,
  WebhookListQuery,
  WebhookListResponse,
  WebhookResponse,
} from './webhooks.schema.js';
import type { WebhooksService } from './webhooks.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Webhooks'];

export const webhooksRoutes: FastifyPluginAsyncTypebox<{ service: WebhooksService }> = async (
  app,
  { service },
) => {
  app.get(
    '/webhooks',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'List webhooks (URLs masked, secrets never returned)',
        querystring: WebhookListQuery,
        response: { 200: WebhookListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page);
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One webhook',
        params: IdParams,
        response: { 200: WebhookResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Add a Slack, Teams or signed generic webhook',
        body: CreateWebhookBody,
        response: { 201: WebhookResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ success: true as const, data: await service.create(request.body) }),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change some fields of a webhook (secret: null removes the signature)',
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      requireSomeField(request.body, UPDATABLE_WEBHOOK_FIELDS);
      return { success: true as const, data: await service.update(toId(request.params.id), request.body) };
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook with its pending deliveries',
        params: IdParams,
        response: { 200: SuccessMessage, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const id = toId(request.params.id);
      await service.remove(id);
      return { success: true as const, message: `Webhook ${id} deleted` };
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: 'Send one system test message now (single attempt, no retry, no notification)',
        params: IdParams,
        response: { 200: TestDeliveryResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.sendTest(toId(request.params.id)) }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'The last 50 delivery attempts of a webhook, newest first',
        params: IdParams,
        response: { 200: DeliveryListResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.deliveries(toId(request.params.id)),
    }),
  );
};
