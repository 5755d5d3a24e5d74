import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../container.js';
import { buildTestApp } from '../../../test/support/test-container.js';
import { openTestDatabase } from '../../../test/support/test-database.js';
import { captureLog } from '../../../test/support/log-capture.js';
import { createTestApp, TEST_KEY, testConfig, type TestApp } from '../../../test/support/test-app.js';

describe('HTTP plumbing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const post = (headers: Record<string, string>, payload?: string) =>
    t.api({ method: 'POST', url: '/api/apps', headers, ...(payload !== undefined ? { payload } : {}) });

  it('answers EMPTY_BODY for a body-requiring request without a body', async () => {
    for (const res of [
      await post({}),
      await post({ 'content-type': 'application/json' }, ''),
      await post({ 'content-type': 'application/json' }, 'null'),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        statusCode: 400,
        details: [{ field: 'body', code: 'EMPTY_BODY', message: expect.any(String) }],
      });
    }
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ])('answers INVALID_CONTENT_TYPE for %s', async (contentType) => {
    const res = await post({ 'content-type': contentType }, 'name=x');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ field: 'content-type', code: 'INVALID_CONTENT_TYPE' }),
    ]);
  });

  it('accepts application/json with a charset', async () => {
    const res = await post(
      { 'content-type': 'application/json; charset=utf-8' },
      JSON.stringify({ name: 'a', code: 'charset', pipelineUrl: 'https://ci.example.com/a' }),
    );
    expect(res.statusCode).toBe(201);
  });

  it('answers INVALID_JSON for malformed JSON', async () => {
    for (const body of ['{bad', '{"name": "x",}', "{'a':1}"]) {
      const res = await post({ 'content-type': 'application/json' }, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        expect.objectContaining({ field: 'body', code: 'INVALID_JSON' }),
      ]);
    }
  });

  it('answers INVALID_TYPE for a body that is not an object', async () => {
    const res = await post({ 'content-type': 'application/json' }, '[1,2]');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ field: 'body', code: 'INVALID_TYPE' }),
    ]);
  });

  it('drops prototype-poisoning keys instead of storing or failing', async () => {
    const res = await post(
      { 'content-type': 'application/json' },
      '{"name":"p","code":"proto","pipelineUrl":"https://ci.example.com","__proto__":{"admin":true}}',
    );
    expect(res.statusCode).toBe(201);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('answers 413 PAYLOAD_TOO_LARGE over 1 MiB', async () => {
    const payload = JSON.stringify({
      name: 'x'.repeat(1024 * 1024),
      code: 'big',
      pipelineUrl: 'https://x.io',
    });
    const res = await post({ 'content-type': 'application/json' }, payload);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', statusCode: 413 },
    });
  });

  it('answers unknown routes with a 404 envelope, after authentication on /api', async () => {
    const res = await t.api({ method: 'GET', url: '/api/does-not-exist?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND', statusCode: 404, path: '/api/does-not-exist', method: 'GET' },
    });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/nothing-here' })).statusCode).toBe(404);
  });

  it('puts timestamp, path, method and request id in every envelope and echoes the id', async () => {
    const res = await t.api({ method: 'GET', url: '/api/apps/0', headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['x-request-id']).toBe('trace-123');
    const { error } = res.json();
    expect(error).toMatchObject({ path: '/api/apps/0', method: 'GET', requestId: 'trace-123' });
    expect(new Date(error.timestamp).toISOString()).toBe(error.timestamp);
    const generated = await t.api({ method: 'GET', url: '/api/apps' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes the request id on refusals and errors too', async () => {
    const id = { 'x-request-id': 'trace-456' };
    const answers = [
      // No key (the guard answers), an unknown /api route, an unknown path outside /api, a body
      // that is not JSON, a schema failure and a missing item.
      await t.app.inject({ method: 'GET', url: '/api/apps', headers: id }),
      await t.api({ method: 'GET', url: '/api/no-such-thing', headers: id }),
      await t.app.inject({ method: 'GET', url: '/no-such-page.json', headers: id }),
      await post({ ...id, 'content-type': 'application/json' }, '{'),
      await post({ ...id, 'content-type': 'application/json' }, '{"name": 1}'),
      await t.api({ method: 'GET', url: '/api/apps/999999', headers: id }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([401, 404, 404, 400, 400, 404]);
    for (const res of answers) expect(res.headers['x-request-id']).toBe('trace-456');
  });

  it('sends security headers and no X-Powered-By', async () => {
    const res = await t.api({ method: 'GET', url: '/api/apps' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows every origin outside production and answers preflights without the key', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/apps',
      headers: {
        origin: 'https://dash.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key,content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://dash.example.com');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-api-key');
  });
});

describe('CORS in production', () => {
  it('allows only CORS_ORIGINS', async () => {
    const t = await createTestApp({
      env: { NODE_ENV: 'production', CORS_ORIGINS: 'https://ok.example.com' },
    });
    try {
      const request = (origin: string) =>
        t.app.inject({
          method: 'OPTIONS',
          url: '/api/apps',
          headers: { origin, 'access-control-request-method': 'GET' },
        });
      expect((await request('https://ok.example.com')).headers['access-control-allow-origin']).toBe(
        'https://ok.example.com',
      );
      expect(
        (await request('https://evil.example.com')).headers['access-control-allow-origin'],
      ).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('logs', () => {
  it('never contain the API key or tokens', async () => {
    const { stream, lines } = captureLog();
    const database = await openTestDatabase('sqlite');
    const config = testConfig({ LOG_LEVEL: 'trace' });
    const app = await buildTestApp(config, { database, log: createLogger(config, stream) });
    // Log the whole request the way a careless debug line would: the redaction must still hold.
    app.addHook('onRequest', async (request) =>
      request.log.debug({ req: { headers: request.headers } }, 'incoming'),
    );
    try {
      await app.inject({
        method: 'GET',
        url: '/api/apps',
        headers: { 'x-api-key': TEST_KEY, authorization: `Bearer ${TEST_KEY}` },
      });
      await app.inject({ method: 'POST', url: '/api/auth/validate', payload: { apiKey: TEST_KEY } });
      await app.inject({
        method: 'GET',
        url: '/api/apps',
        headers: { 'x-api-key': 'wrong-key-secret-value' },
      });
      expect(lines.length).toBeGreaterThan(3);
      const all = lines.join('\n');
      expect(all).not.toContain(TEST_KEY);
      expect(all).not.toContain('wrong-key-secret-value');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
