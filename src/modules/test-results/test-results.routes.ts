import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Readable } from 'node:stream';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, toId } from '../../http/plumbing/schemas.js';
import {
  UploadDetailResponse,
  UploadListQuery,
  UploadListResponse,
  UploadQuery,
  UploadResponse,
} from './test-results.schema.js';
import type { TestResultsService } from './test-results.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Test results'];

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const REPORT_FILE = { type: 'string', format: 'binary' } as const;

/**
 * What `/openapi.json` (and so `/docs`) says the upload takes: the report file itself, in one of
 * three content types, optionally gzipped. Documentation only: the body arrives as a stream and
 * is checked by the service as it is read, so it has no schema the router would validate.
 */
const uploadDocumentation: SwaggerTransform = ({ schema, url }) => ({
  url,
  schema: {
    ...schema,
    body: {
      content: {
        'application/xml': {
          schema: { ...REPORT_FILE, description: 'JUnit XML (mocha-junit-reporter, jest-junit, pytest, …)' },
        },
        'text/xml': { schema: { ...REPORT_FILE, description: 'JUnit XML' } },
        'application/json': {
          schema: { ...REPORT_FILE, description: "Playwright's json reporter or Mochawesome" },
        },
      },
    },
    headers: Type.Object({
      'content-encoding': Type.Optional(
        Type.String({
          enum: ['gzip', 'identity'],
          description: 'gzip: the file is gzipped (any of the three types)',
        }),
      ),
    }),
  },
});

export const testResultsRoutes: FastifyPluginAsyncTypebox<{
  service: TestResultsService;
  maxBytes: number;
}> = async (app, { service, maxBytes }) => {
  // This scope only: the report file arrives as a stream, checked, inflated and parsed by the
  // service as it comes, instead of the API's buffered JSON parser with its 1 MiB limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: maxBytes }, (_request, payload, done) => {
    done(null, payload);
  });

  app.post(
    '/test_results',
    {
      bodyLimit: maxBytes,
      // Upload keys (CI) may send results, each held to its applications if it names some.
      config: {
        ownsBodyValidation: true,
        access: { scopes: ['upload'], uploadApps: { query: 'app', by: 'code' } },
        swaggerTransform: uploadDocumentation,
      },
      schema: {
        tags,
        summary:
          'Upload a CI report file (JUnit XML, Playwright JSON or Mochawesome JSON, optionally gzipped) for a run of an app',
        querystring: UploadQuery,
        response: {
          200: UploadResponse,
          201: UploadResponse,
          ...errorResponses(400, 401, 404, 413, 500),
        },
      },
    },
    async (request, reply) => {
      const { upload, created } = await service.upload({
        query: request.query,
        body: request.body as Readable | undefined,
        contentType: headerText(request.headers['content-type']),
        contentEncoding: headerText(request.headers['content-encoding']),
        contentLength: headerText(request.headers['content-length']),
      });
      return reply.status(created ? 201 : 200).send({ success: true as const, data: upload });
    },
  );

  app.get(
    '/test_results',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'Uploaded test results, newest first (optionally of one app)',
        querystring: UploadListQuery,
        response: { 200: UploadListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page, request.query.appId);
      return listResponse(items, total, page);
    },
  );

  app.get(
    '/test_results/:id',
    {
      config: { access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One upload with the error text of each failed test',
        params: IdParams,
        response: { 200: UploadDetailResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.delete(
    '/test_results/:id',
    {
      schema: {
        tags,
        summary: 'Delete an upload: its runs leave the next reports',
        params: IdParams,
        response: { 204: Type.Null({ description: 'No content' }), ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request, reply) => {
      await service.delete(toId(request.params.id));
      return reply.status(204).send(null);
    },
  );
};
