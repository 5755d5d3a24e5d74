import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuthGuard } from '../../http/auth/auth-guard.js';

const ValidateBody = Type.Object({ apiKey: Type.String({ description: 'The key to check' }) });
const ValidateResult = Type.Object({ valid: Type.Boolean(), message: Type.String() });
const Blocked = Type.Object({ error: Type.String(), retryAfter: Type.Integer() });

export const authRoutes: FastifyPluginAsyncTypebox<{ guard: AuthGuard }> = async (app, { guard }) => {
  app.post(
    '/auth/validate',
    {
      // The body is documented but checked by the handler: every bad input answers in the
      // `{valid, message}` shape (and counts as a failed attempt) instead of the error envelope.
      config: { ownsBodyValidation: true, public: true },
      validatorCompiler: () => () => true,
      schema: {
        tags: ['Authentication'],
        summary: 'Check an API key (public; failures count towards the brute-force block)',
        security: [],
        body: ValidateBody,
        response: { 200: ValidateResult, 400: ValidateResult, 401: ValidateResult, 429: Blocked },
      },
    },
    async (request, reply) => {
      const apiKey = (request.body as { apiKey?: unknown } | undefined)?.apiKey;
      if (typeof apiKey !== 'string' || apiKey === '') {
        return guard.handleFailure(request, reply, () =>
          reply
            .status(400)
            .send({ valid: false, message: 'apiKey is required and must be a non-empty string' }),
        );
      }
      if (!guard.keyMatches(apiKey)) {
        return guard.handleFailure(request, reply, () =>
          reply.status(401).send({ valid: false, message: 'Invalid API key' }),
        );
      }
      await guard.clearFailures(request);
      return { valid: true, message: 'API key is valid' };
    },
  );
};
