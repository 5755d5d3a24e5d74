import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../../shared/version.js';

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
          'Every /api path except POST /api/auth/validate needs the shared key in the x-api-key header.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
      security: [{ apiKey: [] }],
    },
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
