import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '../../../src/container.js';
import { DIALECTS, openTestDatabase } from '../../support/databases.js';
import { captureLog } from '../../support/log-capture.js';
import { TEST_KEY, testConfig } from '../../support/test-app.js';
import { buildTestApp } from '../../support/test-container.js';
import { JUNIT } from '../../support/key-support.js';

interface Made {
  id: number;
  key: string;
}

/**
 * A debug-level run that makes keys and uses them every way a client can (header, Bearer, Basic
 * password, query string, validation body; in scope, out of scope, revoked, unknown): no log
 * line and no answer after the one that created a key carries it, nor its hash.
 */
describe.each(DIALECTS)('keys stay secret (%s)', (dialect) => {
  const log = captureLog();
  let app: FastifyInstance;
  let base: string;
  let close: () => Promise<void>;
  const made: Record<string, Made> = {};
  const answers: string[] = [];
  const paths: string[] = [];

  const send = async (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const response = await fetch(`${base}${path}`, init);
    const text = await response.text();
    // What came back (the path asked for is the test's own text, so it is left out).
    answers.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
    paths.push(path);
    return { status: response.status, text };
  };
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    const config = testConfig({ LOG_LEVEL: 'debug' });
    const database = await openTestDatabase(dialect);
    app = await buildTestApp(config, { database, log: createLogger(config, log.stream) });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    close = async () => {
      await app.close();
      await database.close();
    };
    const admin = { 'x-api-key': TEST_KEY, ...json };
    await fetch(`${base}/api/apps`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Shop', code: 'shop', pipelineUrl: 'https://ci.example.com/shop' }),
    });
    for (const [scope, apps] of [
      ['admin', undefined],
      ['read', undefined],
      ['upload', ['shop']],
      ['revoked', undefined],
    ] as const) {
      const response = await fetch(`${base}/api/keys`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          name: scope,
          scope: scope === 'revoked' ? 'read' : scope,
          ...(apps ? { apps } : {}),
        }),
      });
      expect(response.status).toBe(201);
      made[scope] = ((await response.json()) as { data: Made }).data;
    }
    await send(`/api/keys/${made.revoked!.id}`, { method: 'DELETE', headers: { 'x-api-key': TEST_KEY } });

    // Every way of presenting each key, with answers of every kind.
    for (const { key } of Object.values(made)) {
      const basic = `Basic ${Buffer.from(`me:${key}`).toString('base64')}`;
      await send('/api/apps', { headers: { 'x-api-key': key } });
      await send(`/api/apps?key=${key}&api_key=${key}`, { headers: { 'x-api-key': key } });
      await send('/api/to_do_list', {
        method: 'POST',
        headers: { 'x-api-key': key, ...json },
        body: '{"title":"t"}',
      });
      await send('/api/to_do_list', { method: 'POST', headers: { 'x-api-key': key, ...json }, body: '{' });
      await send('/metrics', { headers: { authorization: `Bearer ${key}` } });
      await send('/docs/json', { headers: { authorization: basic } });
      await send('/api/auth/validate', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ apiKey: key }),
      });
      await send('/api/quarantine?appId=999', { headers: { 'x-api-key': key } });
      await send('/api/test_results?app=shop&run=3', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/xml' },
        body: JUNIT,
      });
      await send('/api/test_results?app=other&run=3', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/xml' },
        body: JUNIT,
      });
    }
    // A key one character off: unknown, counted, logged as a failure.
    const near = `${made.read!.key.slice(0, -1)}${made.read!.key.endsWith('A') ? 'B' : 'A'}`;
    await send('/api/apps', { headers: { 'x-api-key': near } });
  }, 60_000);
  afterAll(async () => close?.());

  const secretsOf = (key: string) => [key, key.slice(12), createHash('sha256').update(key).digest('hex')];

  it('the run logged at debug level, and no line carries a key or its hash', () => {
    const text = log.lines.join('');
    expect(app.log.level).toBe('debug');
    expect(log.lines.length).toBeGreaterThan(50);
    for (const { key } of Object.values(made)) {
      for (const secret of secretsOf(key)) expect(text).not.toContain(secret);
    }
  });

  it('no answer after creation carries a key: every GET of the API, /metrics, /docs and the answers above', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, object>;
    };
    const gets = Object.entries(document.paths)
      .filter(([, methods]) => 'get' in methods)
      .map(([path]) =>
        path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'date' ? '2025-01-06' : '1')),
      );
    for (const path of [
      ...gets,
      '/api/keys?limit=100',
      '/api/status',
      '/metrics',
      '/docs/json',
      '/openapi.json',
    ]) {
      await send(path, { headers: { 'x-api-key': TEST_KEY } });
    }
    expect(answers.length).toBeGreaterThan(80);
    const text = answers.join('\n');
    for (const { key } of Object.values(made)) {
      for (const secret of secretsOf(key)) expect(text).not.toContain(secret);
    }
    // The list does show each key's prefix, which is how people recognise it.
    const list = answers[paths.indexOf('/api/keys?limit=100')]!;
    for (const { key } of Object.values(made)) expect(list).toContain(key.slice(0, 12));
  });
});
