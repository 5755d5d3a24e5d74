import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/database.js';
import { DIALECTS } from '../../support/databases.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { JUNIT, makeApp, makeKey, type MadeKey, withKey } from '../../support/key-support.js';

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: string; required?: boolean }[];
}

/** Every operation of the served OpenAPI document under /api. */
async function operations(t: TestApp): Promise<Operation[]> {
  const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
    paths: Record<string, Record<string, { parameters?: Operation['parameters'] }>>;
  }>();
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    path.startsWith('/api')
      ? Object.entries(methods).map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
        }))
      : [],
  );
}

/** A plausible value for each parameter, so that an admitted request reaches its handler. */
const VALUES: Record<string, string> = {
  id: '1',
  appId: '1',
  summaryId: '1',
  date: '2025-01-06',
  name: 'delete-completed-todos',
  app: 'shop',
  run: '9',
  spec: 'cart.cy.ts',
};

function requestFor(operation: Operation, key: MadeKey) {
  const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => VALUES[name] ?? '1');
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    if (parameter.in === 'query' && parameter.required)
      query.set(parameter.name, VALUES[parameter.name] ?? '1');
  }
  const target = query.size > 0 ? `${url}?${query.toString()}` : url;
  if (operation.path === '/api/test_results' && operation.method === 'POST') {
    return { url: target, headers: { 'content-type': 'application/xml' }, payload: JUNIT };
  }
  if (operation.path === '/api/auth/validate') return { url: target, payload: { apiKey: key.key } };
  return {
    url: target,
    ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { payload: {} }),
  };
}

/** Every row of every table, to show that refused requests changed nothing at all. */
async function snapshot(database: DatabaseHandle): Promise<Record<string, string>> {
  const tables = (await database.db.introspection.getTables()).map((table) => table.name);
  const contents: Record<string, string> = {};
  for (const table of tables.filter((name) => !name.startsWith('kysely_')).sort()) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    contents[table] = JSON.stringify(rows.rows.map((row) => JSON.stringify(row)).sort());
  }
  return contents;
}

/** What each scope may call: the table, written out independently of the route configs. */
const ALLOWED: Record<string, (operation: Operation) => boolean> = {
  read: ({ method, path }) =>
    (method === 'GET' && !path.startsWith('/api/keys')) || path === '/api/auth/validate',
  upload: ({ method, path }) =>
    (method === 'POST' && path === '/api/test_results') ||
    (method === 'GET' && path === '/api/quarantine') ||
    // The CI gate (#37) reads its run's verdict, held to the key's applications.
    (method === 'GET' && path.startsWith('/api/apps/{id}/runs/{runNumber}')) ||
    path === '/api/auth/validate',
  revoked: () => false,
  expired: () => false,
};

describe.each(DIALECTS)(
  'every route of /openapi.json with narrow, revoked and expired keys (%s)',
  (dialect) => {
    let t: TestApp;
    const keys: Record<string, MadeKey> = {};

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      const shop = await makeApp(t, 'shop');
      const blog = await makeApp(t, 'blog');
      const seeds: [string, object][] = [
        ['/api/to_do_list', { title: 'Check the flaky cart spec' }],
        ['/api/notifications', { title: 'Hello', message: 'World', type: 'info' }],
        ['/api/quarantine', { appId: shop, spec: 'cart.cy.ts', reason: 'known' }],
        ['/api/quarantine', { appId: blog, spec: 'post.cy.ts', reason: 'known' }],
        ['/api/webhooks', { url: 'https://hooks.example.com/x', kind: 'generic' }],
      ];
      for (const [url, payload] of seeds) {
        const response = await t.api({ method: 'POST', url, payload });
        expect(response.statusCode, `${url} ${response.body}`).toBe(201);
      }
      keys.read = await makeKey(t, { scope: 'read' });
      keys.upload = await makeKey(t, { scope: 'upload', apps: ['shop'] });
      keys.revoked = await makeKey(t, { scope: 'admin' });
      expect((await t.api({ method: 'DELETE', url: `/api/keys/${keys.revoked.id}` })).statusCode).toBe(204);
      const expiresAt = new Date(Date.now() + 1000).toISOString();
      keys.expired = await makeKey(t, { scope: 'admin', expiresAt });
      await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
      // Let the webhook delivery queued by the seeded notification settle before any snapshot.
      await t.app.inject({ method: 'GET', url: '/health' });
    });
    afterAll(async () => t?.close());

    it('the sweep covers every operation (the document is the list of routes)', async () => {
      const all = await operations(t);
      expect(all.length).toBeGreaterThan(60);
      expect(all.map((op) => `${op.method} ${op.path}`)).toEqual(
        expect.arrayContaining([
          'POST /api/keys',
          'GET /api/keys',
          'DELETE /api/keys/{id}',
          'POST /api/test_results',
        ]),
      );
    });

    for (const scope of ['read', 'upload', 'revoked', 'expired']) {
      it(`${scope} key: refused everywhere its scope does not reach (401/403), changing no row`, async () => {
        const key = keys[scope]!;
        const refused = (await operations(t)).filter((op) => !ALLOWED[scope]!(op));
        const before = await snapshot(t.database);
        for (const operation of refused) {
          const response = await withKey(
            t,
            key.key,
          )({
            method: operation.method as 'GET',
            ...requestFor(operation, key),
          });
          const expected = scope === 'read' || scope === 'upload' ? 403 : 401;
          expect(response.statusCode, `${operation.method} ${operation.path}: ${response.body}`).toBe(
            expected,
          );
          if (expected === 403) {
            expect(response.json().error).toMatchObject({ code: 'FORBIDDEN', details: { scope } });
          }
        }
        expect(await snapshot(t.database)).toEqual(before);
      });
    }

    it('read key: every GET but /api/keys is answered (no 401/403)', async () => {
      for (const operation of (await operations(t)).filter(ALLOWED.read!)) {
        const response = await withKey(
          t,
          keys.read!.key,
        )({
          method: operation.method as 'GET',
          ...requestFor(operation, keys.read!),
        });
        expect([401, 403], `${operation.method} ${operation.path}`).not.toContain(response.statusCode);
        expect(response.statusCode === 502 || response.statusCode < 500, operation.path).toBe(true);
      }
    });

    it('upload key: sends results and reads quarantines for its app only; another app is 403 and stores nothing', async () => {
      const asUpload = withKey(t, keys.upload!.key);
      const sent = await asUpload({
        method: 'POST',
        url: '/api/test_results?app=shop&run=41',
        headers: { 'content-type': 'application/xml' },
        payload: JUNIT,
      });
      expect(sent.statusCode).toBe(201);
      const before = await snapshot(t.database);
      const other = await asUpload({
        method: 'POST',
        url: '/api/test_results?app=blog&run=41',
        headers: { 'content-type': 'application/xml' },
        payload: JUNIT,
      });
      expect(other.statusCode).toBe(403);
      expect((await asUpload({ method: 'GET', url: '/api/quarantine?appId=2' })).statusCode).toBe(403);
      expect(await snapshot(t.database)).toEqual(before);
      const quarantines = await asUpload({ method: 'GET', url: '/api/quarantine' });
      expect(quarantines.json().data.map((q: { spec: string }) => q.spec)).toEqual(['cart.cy.ts']);
    });
  },
);
