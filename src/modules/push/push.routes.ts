import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, SuccessMessage } from '../../http/plumbing/schemas.js';
import { DeviceTokenBody } from './push.schema.js';
import type { PushService } from './push.service.js';

const tags = ['Push device tokens'];

export const pushRoutes: FastifyPluginAsyncTypebox<{ service: PushService }> = async (app, { service }) => {
  const register = (url: string, summary: string, deprecated = false) =>
    app.post(
      url,
      {
        schema: {
          tags,
          summary,
          ...(deprecated ? { deprecated: true } : {}),
          body: DeviceTokenBody,
          response: { 200: SuccessMessage, ...errorResponses(400, 401, 500) },
        },
      },
      async (request) => {
        await service.register(request.body.token);
        return { success: true as const, message: 'Device token registered' };
      },
    );

  register('/push/register', 'Register a device token for push (idempotent; refreshes its last use)');
  register('/push/register-token', 'Same as POST /api/push/register');
  register('/fcm/register-token', 'Compatibility alias of POST /api/push/register', true);

  app.post(
    '/push/unregister',
    {
      schema: {
        tags,
        summary: 'Unregister a device token (succeeds whether or not it was registered)',
        body: DeviceTokenBody,
        response: { 200: SuccessMessage, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const removed = await service.unregister(request.body.token);
      return {
        success: true as const,
        message: removed ? 'Device token unregistered' : 'Device token was not registered',
      };
    },
  );
};
