import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../support/test-app.js';
import { expectEnvelope, type Json } from '../../support/acceptance-support.js';

const CYPRESS_SECRET = 'cypress-secret-value-0123456789';
const GITHUB_SECRET = 'ghp_secretvalue0123456789abcdef';

// The status page API, "mark all read", sign-in attempts and the never-500 input rules.
describe.each(DIALECTS)('acceptance: status, read_all, sign-in and bad input (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      env: { CYPRESS_API_KEY: CYPRESS_SECRET, GITHUB_TOKEN: GITHUB_SECRET, BRUTE_FORCE_MAX_ATTEMPTS: '1000' },
    });
  });
  afterAll(async () => t.close());

  it('GET /api/status answers the documented shape, names missing variables and no secret values', async () => {
    const response = await t.api({ method: 'GET', url: '/api/status' });
    expect(response.statusCode).toBe(200);
    const body = response.json<Json>();
    expect(body.success).toBe(true);
    const data = body.data as Json;
    expect(data).toMatchObject({
      version: expect.any(String),
      roles: expect.any(Array),
      database: { dialect },
      broker: { kind: expect.stringMatching(/^(in-process|redis)$/), status: expect.any(String) },
    });
    expect(Object.keys(data.integrations).sort()).toEqual(['circleci', 'cypress', 'fcm', 'github', 'jira']);
    for (const integration of Object.values<Json>(data.integrations)) {
      expect(integration).toMatchObject({
        configured: expect.any(Boolean),
        missing: expect.any(Array),
      });
      expect(integration).toHaveProperty('lastSuccessAt');
      expect(integration).toHaveProperty('lastError');
      expect(integration.configured).toBe(integration.missing.length === 0);
    }
    expect(data.integrations.cypress).toMatchObject({ configured: true, missing: [] });
    expect(data.integrations.github).toMatchObject({ configured: true, missing: [] });
    expect(data.integrations.circleci.missing).toContain('CIRCLECI_TOKEN');
    expect(data.jobs.length).toBeGreaterThan(0);
    for (const job of data.jobs as Json[]) {
      for (const field of ['name', 'schedule', 'nextRun', 'lastRun', 'lastResult'])
        expect(job).toHaveProperty(field);
    }
    for (const secret of [CYPRESS_SECRET, GITHUB_SECRET, TEST_KEY])
      expect(response.body).not.toContain(secret);
    expect((await t.app.inject({ method: 'GET', url: '/api/status' })).statusCode).toBe(401);
  });

  it('POST /api/notifications/read_all marks unread ones read → {success, data: {updated}}, with a type filter', async () => {
    const notify = (type: string) =>
      t.api({
        method: 'POST',
        url: '/api/notifications',
        payload: { type, title: `t ${type}`, message: 'm' },
      });
    for (const type of ['info', 'info', 'system']) expect((await notify(type)).statusCode).toBe(201);
    const unreadOf = async (type: string) =>
      (
        (await t.api({ method: 'GET', url: `/api/notifications?type=${type}&isRead=false` })).json<Json>()
          .data as Json[]
      ).length;
    const onlyInfo = await t.api({
      method: 'POST',
      url: '/api/notifications/read_all',
      payload: { type: 'info' },
    });
    expect(onlyInfo.statusCode).toBe(200);
    expect(onlyInfo.json<Json>()).toEqual({ success: true, data: { updated: 2 } });
    expect(await unreadOf('info')).toBe(0);
    expect(await unreadOf('system')).toBe(1);
    const rest = await t.api({ method: 'POST', url: '/api/notifications/read_all' });
    expect(rest.json<Json>()).toEqual({ success: true, data: { updated: 1 } });
    const again = await t.api({ method: 'POST', url: '/api/notifications/read_all', payload: {} });
    expect(again.json<Json>()).toEqual({ success: true, data: { updated: 0 } });
    expectEnvelope(
      await t.api({ method: 'POST', url: '/api/notifications/read_all', payload: { type: 'everything' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await t.app.inject({ method: 'POST', url: '/api/notifications/read_all' })).statusCode).toBe(401);
  });

  it('POST /api/auth/validate answers 400 {valid: false, message} to every unreadable body, never 500', async () => {
    const bodies: [string, string][] = [
      ['application/json', '{'],
      ['application/x-www-form-urlencoded', 'apiKey=abc'],
      ['text/plain', 'abc'],
      ['application/xml', '<apiKey>abc</apiKey>'],
      ['application/json', '[]'],
      ['application/json', 'null'],
      ['application/json', '"abc"'],
      ['application/json', '{"apiKey": 5}'],
      ['application/json', '{"apiKey": ""}'],
    ];
    for (const [contentType, payload] of bodies) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/validate',
        headers: { 'content-type': contentType },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json<Json>()).toMatchObject({ valid: false, message: expect.any(String) });
    }
    const correct = await t.app.inject({
      method: 'POST',
      url: '/api/auth/validate',
      payload: { apiKey: TEST_KEY },
    });
    expect(correct.json<Json>()).toMatchObject({ valid: true });
  });

  it('GET /api/e2e_run_report names every invalid query parameter in one 400, enrichments included', async () => {
    for (const enrichments of ['{"bogus":true}', 'not-json', '{"includeDetails":"yes"}', '[true]']) {
      const response = await t.api({
        method: 'GET',
        url: `/api/e2e_run_report?date=2025-02-30&force=yes&enrichments=${encodeURIComponent(enrichments)}`,
      });
      const details = expectEnvelope(response, 400, 'VALIDATION_ERROR').map((detail) => detail.split(':')[0]);
      expect(details.sort(), enrichments).toEqual(['date', 'enrichments', 'force']);
    }
  });

  it('rejects a NUL character in string fields with the same 400 VALIDATION_ERROR on both dialects', async () => {
    for (const [url, payload] of [
      ['/api/to_do_list', { title: 'buy\u0000milk' }],
      ['/api/apps', { name: 'a\u0000', code: 'nul-app', pipelineUrl: 'https://ci.example.com/p' }],
      ['/api/notifications', { type: 'info', title: 'x', message: 'm\u0000' }],
      ['/api/pull_requests', { url: 'https://github.com/o/r/pull/1', title: 'fix\u0000' }],
      ['/api/push/register', { token: 'tok\u0000en' }],
      ['/api/webhooks', { url: 'https://example.com/h', kind: 'generic', name: '\u0000' }],
    ] as const) {
      const response = await t.api({ method: 'POST', url, payload });
      expectEnvelope(response, 400, 'VALIDATION_ERROR');
    }
  });
});

describe('acceptance: sign-in attempts remaining', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('a wrong key answers 401 with attemptsRemaining counting down, then the address is blocked (429)', async () => {
    const attempt = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/validate', payload: { apiKey: 'wrong-key' } });
    const remaining: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await attempt();
      expect(response.statusCode).toBe(401);
      const body = response.json<Json>();
      expect(body).toMatchObject({ valid: false, message: expect.any(String) });
      remaining.push(body.attemptsRemaining as number);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const blocked = await attempt();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<Json>()).toMatchObject({ error: expect.any(String), retryAfter: expect.any(Number) });
  });
});
