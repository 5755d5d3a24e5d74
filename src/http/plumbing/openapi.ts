import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { VERSION } from '../../shared/version.js';
import { ErrorEnvelopeSchema } from './schemas.js';

/**
 * Documents, on each operation that needs a key, which key scopes it admits (`x-key-scopes`,
 * from the route's own `access` config, the same one the guard reads) and the 403 a key of
 * another scope gets. Public operations (`security: []`) are left as they are.
 */
function documentScopes({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  const security = (schema as { security?: unknown[] } | undefined)?.security;
  if (!schema || !url.startsWith('/api') || (Array.isArray(security) && security.length === 0)) {
    return { schema, url };
  }
  const scopes = ['admin', ...(route.config?.access?.scopes ?? [])];
  const response = { ...(schema.response as object), 403: Type.Ref(ErrorEnvelopeSchema) };
  return { schema: { ...schema, response, 'x-key-scopes': scopes } as FastifySchema, url };
}

/** OpenAPI 3.1 generated from the route schemas, served as JSON. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Test-results dashboard API',
        version: VERSION,
        description:
          'E2E report summaries per application, pull requests, tracker tickets, to-dos and notifications. ' +
          'Every /api path except POST /api/auth/validate needs a key in the x-api-key header: ' +
          'API_SECURITY_KEY or a key made through /api/keys. `x-key-scopes` names the scopes of keys ' +
          'an operation admits (admin, read, upload); a key of another scope gets 403 FORBIDDEN.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
      security: [{ apiKey: [] }],
    },
    transform: documentScopes,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  // The document is the committed openapi.json: public, like the repository that holds it.
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** The interactive docs at `/docs`; registered inside a key-protected scope by the app. */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false });
}
