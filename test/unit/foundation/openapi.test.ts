import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../../scripts/openapi-document.js';
import { createTestApp, TEST_KEY } from '../../support/test-app.js';

describe('OpenAPI document', () => {
  it('matches the committed openapi.json (run `npm run openapi` after changing a route)', async () => {
    const committed = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8');
    expect(JSON.parse(committed)).toEqual(JSON.parse(await generateOpenApiDocument()));
  });

  it('is OpenAPI 3.1, served at /openapi.json with key-protected docs at /docs', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      const document = res.json();
      expect(document.openapi).toBe('3.1.0');
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/health',
          '/api/apps',
          '/api/apps/{id}',
          '/api/to_do_list',
          '/api/auth/validate',
        ]),
      );
      // The upload takes the report file itself: /docs offers a file picker for each content type.
      const upload = document.paths['/api/test_results'].post;
      const file = { type: 'string', format: 'binary' };
      expect(upload.requestBody).toMatchObject({
        required: true,
        content: {
          'application/xml': { schema: file },
          'text/xml': { schema: file },
          'application/json': { schema: file },
        },
      });
      expect(upload.parameters).toContainEqual(
        expect.objectContaining({
          in: 'header',
          name: 'content-encoding',
          schema: expect.objectContaining({ enum: ['gzip', 'identity'] }),
        }),
      );
      expect(document.components.securitySchemes.apiKey).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
      });
      // A browser asked for the docs without the key gets a Basic challenge; the key is the password.
      const challenged = await t.app.inject({ method: 'GET', url: '/docs/' });
      expect(challenged.statusCode).toBe(401);
      expect(challenged.headers['www-authenticate']).toMatch(/^Basic realm="Dashboard"/);
      const basic = `Basic ${Buffer.from(`docs:${TEST_KEY}`).toString('base64')}`;
      for (const headers of [{ authorization: basic }, { 'x-api-key': TEST_KEY }]) {
        const docs = await t.app.inject({ method: 'GET', url: '/docs/', headers });
        expect(docs.statusCode).toBe(200);
        expect(docs.headers['content-type']).toContain('text/html');
      }
    } finally {
      await t.close();
    }
  });
});
