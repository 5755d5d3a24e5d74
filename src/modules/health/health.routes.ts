import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { matchesIfNoneMatch } from '../../http/caching/response-cache.js';
import type { HealthAnswer, createHealthCheck } from './health.check.js';
import { HealthResponse } from './health.schema.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{
  check: ReturnType<typeof createHealthCheck>;
}> = async (app, { check }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Liveness and dependency status (no key needed)',
        description:
          'Carries a weak ETag naming the status and dependency states: `If-None-Match` with it ' +
          'answers 304 while they stay the same.',
        security: [],
        response: {
          200: HealthResponse,
          304: Type.Null({ description: 'Not modified: the state is the one the validator names' }),
          503: HealthResponse,
        },
      },
    },
    (request, reply) => {
      const send = ({ statusCode, etag, body }: HealthAnswer) => {
        void reply.header('etag', etag).header('cache-control', 'no-cache');
        if (statusCode === 200 && matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
          // No body at all (the typed reply would serialise `null`).
          void (reply as FastifyReply).code(304).send();
          return;
        }
        void reply.status(statusCode).send(body);
      };
      // Embedded dependencies answer at once, and then so does this handler.
      const answer = check();
      if (answer instanceof Promise) return answer.then(send);
      send(answer);
    },
  );
};
