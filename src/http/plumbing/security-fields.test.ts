import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { securityHeaderFields } from './security.js';

describe('security header fields', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('are the full set helmet makes for our policy', () => {
    const fields = securityHeaderFields();
    expect(Object.keys(fields).sort()).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]);
    expect(fields['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(fields['cross-origin-resource-policy']).toBe('cross-origin');
    expect(fields['referrer-policy']).toBe('no-referrer');
  });

  it('are on every answer: served, refused, unknown route, preflight', async () => {
    const fields = securityHeaderFields();
    const answers = [
      await t.app.inject({ method: 'GET', url: '/health' }),
      await t.app.inject({ method: 'GET', url: '/api/apps' }),
      await t.api({ method: 'GET', url: '/api/no-such-route' }),
      await t.app.inject({
        method: 'OPTIONS',
        url: '/api/apps',
        headers: { origin: 'http://ui.test', 'access-control-request-method': 'GET' },
      }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 204]);
    for (const answer of answers) {
      for (const [name, value] of Object.entries(fields)) expect(answer.headers[name], name).toBe(value);
    }
  });
});
