import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, toId } from '../../http/plumbing/schemas.js';
import { requireSomeField } from '../../http/plumbing/validation.js';
import { ValidationError } from '../../shared/errors.js';
import {
  CreateNotificationBody,
  NotificationListQuery,
  NotificationListResponse,
  NotificationResponse,
  ReadAllBody,
  ReadAllFilter,
  ReadAllResponse,
  UPDATABLE_NOTIFICATION_FIELDS,
  UpdateNotificationBody,
} from './notifications.schema.js';
import type { NotificationsService } from './notifications.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Notifications'];
const NoContent = Type.Null({ description: 'No content' });

export const notificationsRoutes: FastifyPluginAsyncTypebox<{ service: NotificationsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/notifications',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'List notifications, newest first (filters: isRead, type)',
        querystring: NotificationListQuery,
        response: { 200: NotificationListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const { isRead, type, order } = request.query;
      const page = resolvePage(request.query);
      const filter = { ...(isRead !== undefined ? { isRead } : {}), ...(type !== undefined ? { type } : {}) };
      const { items, total } = await service.list(filter, page, order ?? 'desc');
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/notifications/:id',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One notification',
        params: IdParams,
        response: { 200: NotificationResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.post(
    '/notifications',
    {
      schema: {
        tags,
        summary: 'Create a notification and push it to every registered device',
        body: CreateNotificationBody,
        response: { 201: NotificationResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ success: true as const, data: await service.create(request.body) }),
  );

  app.put(
    '/notifications/:id',
    {
      schema: {
        tags,
        summary: 'Change some fields of a notification (title, message, type, data, isRead)',
        params: IdParams,
        body: UpdateNotificationBody,
        response: { 200: NotificationResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      requireSomeField(request.body, UPDATABLE_NOTIFICATION_FIELDS);
      return { success: true as const, data: await service.update(toId(request.params.id), request.body) };
    },
  );

  app.post(
    '/notifications/read_all',
    {
      config: { bodyOptional: true },
      schema: {
        tags,
        summary: 'Mark every unread notification read (optional type filter, as ?type= or {type})',
        querystring: ReadAllFilter,
        body: ReadAllBody,
        response: { 200: ReadAllResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const fromQuery = request.query.type;
      const fromBody = request.body?.type;
      if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
        throw ValidationError.single(
          'type',
          'INVALID_VALUE',
          'type is given twice (query and body) with different values',
          fromBody,
        );
      }
      const updated = await service.markAllRead(fromQuery ?? fromBody);
      return { success: true as const, data: { updated } };
    },
  );

  for (const method of ['PATCH', 'POST'] as const) {
    app.route({
      method,
      url: '/notifications/:id/read',
      schema: {
        tags,
        summary: 'Mark a notification as read',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 500) },
      },
      handler: async (request, reply) => {
        await service.markRead(toId(request.params.id));
        return reply.status(204).send(null);
      },
    });
  }

  app.delete(
    '/notifications/:id',
    {
      schema: {
        tags,
        summary: 'Delete a notification',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request, reply) => {
      await service.remove(toId(request.params.id));
      return reply.status(204).send(null);
    },
  );
};
