import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CachedRead } from '../../http/caching/http-caching.js';
import { Type } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, toId } from '../../http/plumbing/schemas.js';
import { toValidationError } from '../../http/plumbing/validation.js';
import { ValidationError } from '../../shared/errors.js';
import {
  CreateQuarantineBody,
  QuarantineListQuery,
  QuarantineListResponse,
  QuarantineResponse,
  ReviewResponse,
} from './quarantine.schema.js';
import { expiryProblems, type QuarantineService } from './quarantine.service.js';
import type { QuarantineReview } from './review.js';
import { READ_ACCESS, type RouteAccess } from '../../http/auth/route-access.js';

const tags = ['Quarantine'];
const responseCache: CachedRead = { tables: ['quarantines', 'apps'] };
const NoContent = Type.Null({ description: 'Lifted' });
/**
 * The list is open to read keys and to upload keys (CI asks which specs are known failures); an
 * upload key limited to some applications sees only theirs, and asking for another is 403.
 */
const UPLOAD_LIST_ACCESS: RouteAccess = {
  scopes: ['read', 'upload'],
  uploadApps: { query: 'appId', by: 'id' },
};

/** Known failures: `/api/quarantine` and the review the `quarantine-review` job calls. */
export const quarantineRoutes: FastifyPluginAsyncTypebox<{
  service: QuarantineService;
  review: QuarantineReview;
  clock: () => number;
}> = async (app, { service, review, clock }) => {
  app.post(
    '/quarantine',
    {
      // The schema's findings are collected here so that an expiry in the past is listed with them.
      attachValidation: true,
      schema: {
        tags,
        summary: 'Quarantine a failing spec of an application (a known failure)',
        body: CreateQuarantineBody,
        response: { 201: QuarantineResponse, ...errorResponses(400, 401, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      const schemaError = request.validationError;
      if (schemaError) {
        const found = toValidationError(
          schemaError.validation as FastifySchemaValidationError[],
          schemaError.validationContext,
          request.body,
        );
        const body: unknown = request.body;
        const expiresAt =
          body && typeof body === 'object' ? (body as { expiresAt?: unknown }).expiresAt : undefined;
        const fromSchema = new Set(found.details.map((detail) => detail.field));
        const extra = fromSchema.has('expiresAt') ? [] : expiryProblems(expiresAt, clock());
        throw new ValidationError([...found.details, ...extra]);
      }
      return reply.status(201).send({ success: true as const, data: await service.create(request.body) });
    },
  );

  app.get(
    '/quarantine',
    {
      config: { responseCache, access: UPLOAD_LIST_ACCESS },
      schema: {
        tags,
        summary:
          'Quarantines, newest first; `active` true for active ones, false for lifted ones (upload keys: their applications only)',
        querystring: QuarantineListQuery,
        response: { 200: QuarantineListResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { appId, active } = request.query;
      const appIds = request.appLimit;
      const { items, total } = await service.list(
        {
          ...(appId !== undefined ? { appId } : {}),
          ...(active !== undefined ? { active } : {}),
          ...(appIds !== undefined ? { appIds } : {}),
        },
        page,
      );
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/quarantine/:id',
    {
      config: { responseCache, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One quarantine',
        params: IdParams,
        response: { 200: QuarantineResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.delete(
    '/quarantine/:id',
    {
      schema: {
        tags,
        summary: 'Lift a quarantine by hand (204); 404 when unknown or already lifted',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request, reply) => {
      await service.lift(toId(request.params.id));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/quarantine/review',
    {
      schema: {
        tags,
        summary:
          'Lift expired quarantines and those whose ticket is done (the quarantine-review job); Jira failing leaves the rest for next time',
        response: { 200: ReviewResponse, ...errorResponses(401, 500) },
      },
    },
    async () => ({ success: true as const, data: await review() }),
  );
};
