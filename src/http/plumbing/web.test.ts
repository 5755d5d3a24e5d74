import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { registerErrorHandling } from './error-handler.js';
import { registerWebUi } from './web.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

async function uiServer(root: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  await registerWebUi(app, { root });
  await app.ready();
  return app;
}

describe('web UI serving (built)', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Dashboard</title><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)');
    app = await uiServer(dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at / without caching', async () => {
    const res = await app.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await app.inject({ url: '/assets/index-AbC123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers HTML navigations to client routes with the page (deep links survive reloads)', async () => {
    const res = await app.inject({ url: '/apps?x=1', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
  });

  it('does not answer non-HTML requests, missing assets or server paths with the page', async () => {
    for (const url of ['/api/nothing', '/health/x', '/docs/nope', '/metrics', '/openapi.json']) {
      const res = await app.inject({ url, headers: HTML });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code, url).toBe('NOT_FOUND');
    }
    expect((await app.inject({ url: '/apps', headers: { accept: 'application/json' } })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ url: '/assets/missing.js', headers: HTML })).statusCode).toBe(404);
  });
});

describe('web UI serving (not built)', () => {
  it('explains how to build the UI at /', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-missing-'));
    const app = await uiServer(join(dir, 'dist'));
    try {
      const res = await app.inject({ url: '/', headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('npm run build:web');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('web UI inside the full application', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('never shadows the API, health or the OpenAPI document', async () => {
    const unknown = await t.api({ url: '/api/does-not-exist', headers: HTML });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });

    const noKey = await t.app.inject({ url: '/api/apps', headers: HTML });
    expect(noKey.statusCode).toBe(401);

    const health = await t.app.inject({ url: '/health', headers: HTML });
    expect(health.headers['content-type']).toContain('application/json');

    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).not.toContain('/');
    expect(Object.keys(doc.paths).some((path) => path.includes('*'))).toBe(false);
  });

  it('answers / with HTML', async () => {
    const res = await t.app.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    // Served over plain http, the page must still load its own scripts (no forced https upgrade).
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});
