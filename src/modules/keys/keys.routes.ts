import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, toId } from '../../http/plumbing/schemas.js';
import { toValidationError } from '../../http/plumbing/validation.js';
import { type ValidationDetail, ValidationError } from '../../shared/errors.js';
import { CreateKeyBody, CreatedKeyResponse, KeyListQuery, KeyListResponse } from './keys.schema.js';
import { createProblems, type KeysService } from './keys.service.js';

const tags = ['API keys'];

/** One detail per field: the first problem found names it. */
function oncePerField(details: ValidationDetail[]): ValidationDetail[] {
  const seen = new Set<string>();
  return details.filter((detail) => !seen.has(detail.field) && seen.add(detail.field));
}

/**
 * `/api/keys`: admin keys only (no route here declares `access`), so neither a read nor an upload
 * key can list, make or revoke keys.
 */
export const keysRoutes: FastifyPluginAsyncTypebox<{ service: KeysService; clock: () => number }> = async (
  app,
  { service, clock },
) => {
  app.post(
    '/keys',
    {
      // The schema's findings are collected here so that the checks it cannot make (an expiry in
      // the past, apps on a key that is not an upload key) are listed with them in one 400.
      attachValidation: true,
      schema: {
        tags,
        summary: 'Make a key (admin, read or upload); the key is in this answer only',
        body: CreateKeyBody,
        response: { 201: CreatedKeyResponse, ...errorResponses(400, 401, 403, 500) },
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
        throw new ValidationError(oncePerField([...found.details, ...createProblems(request.body, clock())]));
      }
      return reply.status(201).send({ success: true as const, data: await service.create(request.body) });
    },
  );

  app.get(
    '/keys',
    {
      schema: {
        tags,
        summary: 'The keys made through the API, newest first (never the key itself)',
        querystring: KeyListQuery,
        response: { 200: KeyListResponse, ...errorResponses(400, 401, 403, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page);
      return listResponse(items, total, page);
    },
  );

  app.delete(
    '/keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke a key (204): every API process refuses it within a second; 409 when already revoked',
        params: IdParams,
        response: {
          204: Type.Null({ description: 'Revoked' }),
          ...errorResponses(400, 401, 403, 404, 409, 500),
        },
      },
    },
    async (request, reply) => {
      await service.revoke(toId(request.params.id));
      return reply.status(204).send(null);
    },
  );
};
