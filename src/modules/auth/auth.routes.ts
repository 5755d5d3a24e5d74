import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthGuard } from '../../http/auth/auth-guard.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';
import { AppError } from '../../shared/errors.js';
import { KeyChecksBlocked, RefusedKey, ValidateKeyBody, ValidKey } from './auth.schema.js';

const NO_USABLE_KEY = 'apiKey is required and must be a non-empty string';
const INACTIVE_KEY = 'This API key was revoked or has expired';

/** The status of an error raised while the request was read (body parsing, content type). */
function requestErrorStatus(error: FastifyError | AppError): number | undefined {
  const status = error instanceof AppError ? error.statusCode : error.statusCode;
  return status !== undefined && status >= 400 && status < 500 ? status : undefined;
}

function requestErrorMessage(error: FastifyError | AppError, status: number): string {
  if (status === 413) return 'Request body exceeds the 1 MiB limit';
  if ((error as { code?: unknown }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return 'Content-Type must be application/json, with a body such as {"apiKey": "…"}';
  }
  return 'Request body must be a JSON object such as {"apiKey": "…"}';
}

export const authRoutes: FastifyPluginAsyncTypebox<{ guard: AuthGuard }> = async (app, { guard }) => {
  const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
    guard.handleFailure(request, reply, (attemptsRemaining) =>
      reply.status(status).send({ valid: false, message, attemptsRemaining }),
    );

  app.post(
    '/auth/validate',
    {
      // The body is documented but checked by the handler: every bad input answers in the
      // `{valid, message, attemptsRemaining}` shape (and counts as a failed attempt) instead of
      // the error envelope.
      // Public (it is the key check), and open to read keys too: every client may ask what it holds.
      config: { ownsBodyValidation: true, public: true, access: READ_ACCESS },
      validatorCompiler: () => () => true,
      // A body that cannot be read (malformed JSON, a form, text, XML, too large) is answered in
      // the same shape; anything else goes on to the application's error handler.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Fastify awaits a returned promise
      errorHandler: async (error, request, reply) => {
        const status = requestErrorStatus(error);
        if (status === undefined) throw error;
        return refuse(request, reply, status === 413 ? 413 : 400, requestErrorMessage(error, status));
      },
      schema: {
        tags: ['Authentication'],
        summary: 'Check an API key (public; failures count towards the brute-force block)',
        security: [],
        body: ValidateKeyBody,
        response: { 200: ValidKey, 400: RefusedKey, 401: RefusedKey, 413: RefusedKey, 429: KeyChecksBlocked },
      },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      const apiKey =
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as { apiKey?: unknown }).apiKey
          : undefined;
      if (typeof apiKey !== 'string' || apiKey === '') return refuse(request, reply, 400, NO_USABLE_KEY);
      const lookup = await guard.identify(apiKey);
      if (lookup.kind === 'unknown') return refuse(request, reply, 401, 'Invalid API key');
      if (lookup.kind === 'inactive') {
        // A revoked or expired key is no guess: refused without counting, like on every route.
        const attemptsRemaining = await guard.attemptsRemaining(request);
        return reply.status(401).send({ valid: false, message: INACTIVE_KEY, attemptsRemaining });
      }
      await guard.clearFailures(request);
      const { scope, name } = lookup.credential;
      return { valid: true, message: 'API key is valid', scope, name };
    },
  );
};
