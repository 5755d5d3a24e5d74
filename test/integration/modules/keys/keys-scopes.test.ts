import { describe, expect, it } from 'vitest';
import { freshIp, JUNIT, makeApp, makeKey, withKey } from '../../../support/key-support.js';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

describe.each(DIALECTS)('API keys: what each scope may do (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, [
    'api_keys',
    'quarantines',
    'test_result_failures',
    'test_result_specs',
    'test_result_uploads',
    'apps',
  ]);

  it('a read key reads every GET but gets 403 FORBIDDEN naming its scope elsewhere, /api/keys included', async () => {
    const read = await makeKey(t, { scope: 'read' });
    const asRead = withKey(t, read.key);
    for (const url of ['/api/apps', '/api/to_do_list', '/api/status', '/api/webhooks', '/api/quarantine']) {
      expect((await asRead({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const refusals: [string, string, object?][] = [
      ['POST', '/api/apps', { name: 'x', code: 'x', pipelineUrl: 'https://ci.example.com/x' }],
      ['POST', '/api/to_do_list', { title: 'nope' }],
      ['GET', '/api/keys'],
      ['POST', '/api/keys', { name: 'mine', scope: 'admin' }],
      ['DELETE', '/api/keys/1'],
      ['POST', '/api/jobs/delete-completed-todos/run'],
    ];
    for (const [method, url, payload] of refusals) {
      const response = await asRead({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      const { error } = response.json();
      expect(error).toMatchObject({ code: 'FORBIDDEN', statusCode: 403, details: { scope: 'read' } });
      expect(error.message).toContain('read');
    }
    expect((await t.api({ method: 'GET', url: '/api/apps' })).json().data).toEqual([]);
    expect(await t.database.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(1);
  });

  it('/metrics and /docs take API_SECURITY_KEY or an admin key, never a read or upload key', async () => {
    const admin = await makeKey(t, { scope: 'admin' });
    const read = await makeKey(t, { scope: 'read' });
    const upload = await makeKey(t, { scope: 'upload' });
    const basic = (key: string) => `Basic ${Buffer.from(`me:${key}`).toString('base64')}`;
    for (const url of ['/metrics', '/docs/json']) {
      expect((await withKey(t, admin.key)({ method: 'GET', url })).statusCode, url).toBe(200);
      const bearer = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${admin.key}` },
      });
      expect(bearer.statusCode, url).toBe(200);
      const browser = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: basic(admin.key) },
      });
      expect(browser.statusCode, url).toBe(200);
      for (const narrow of [read, upload]) {
        const refused = await withKey(t, narrow.key)({ method: 'GET', url });
        expect(refused.statusCode, url).toBe(403);
        expect(refused.body).not.toContain('dashboard_');
      }
    }
  });

  it('an upload key sends results for its apps only and reads only their quarantines', async () => {
    const shop = await makeApp(t, 'shop');
    const blog = await makeApp(t, 'blog');
    for (const [appId, spec] of [
      [shop, 'cart.cy.ts'],
      [blog, 'post.cy.ts'],
    ] as const) {
      const created = await t.api({
        method: 'POST',
        url: '/api/quarantine',
        payload: { appId, spec, reason: 'known' },
      });
      expect(created.statusCode).toBe(201);
    }
    const upload = await makeKey(t, { scope: 'upload', apps: ['shop'] });
    const asUpload = withKey(t, upload.key);
    const send = (code: string) =>
      asUpload({
        method: 'POST',
        url: `/api/test_results?app=${code}&run=7`,
        headers: { 'content-type': 'application/xml' },
        payload: JUNIT,
      });
    expect((await send('shop')).statusCode).toBe(201);
    const other = await send('blog');
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toMatchObject({ code: 'FORBIDDEN', details: { scope: 'upload' } });
    expect((await send('nowhere')).statusCode).toBe(403);
    const uploads = await t.database.db.selectFrom('test_result_uploads').selectAll().execute();
    expect(uploads.map((row) => row.app_id)).toEqual([shop]);

    const listed = await asUpload({ method: 'GET', url: '/api/quarantine' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((q: { appId: number }) => q.appId)).toEqual([shop]);
    expect((await asUpload({ method: 'GET', url: `/api/quarantine?appId=${shop}` })).statusCode).toBe(200);
    expect((await asUpload({ method: 'GET', url: `/api/quarantine?appId=${blog}` })).statusCode).toBe(403);
    for (const url of ['/api/apps', '/api/quarantine/1', '/api/test_results', '/api/keys']) {
      expect((await asUpload({ method: 'GET', url })).statusCode, url).toBe(403);
    }

    // Without apps, an upload key may send for any app and sees every quarantine.
    const anyApp = withKey(t, (await makeKey(t, { scope: 'upload' })).key);
    const all = await anyApp({ method: 'GET', url: '/api/quarantine' });
    expect(all.json().data).toHaveLength(2);
  });

  it('cached answers and ETags never cross scopes: a cache hit still passes the scope check', async () => {
    const shop = await makeApp(t, 'shop');
    const blog = await makeApp(t, 'blog');
    for (const appId of [shop, blog]) {
      await t.api({
        method: 'POST',
        url: '/api/quarantine',
        payload: { appId, spec: 'a.cy.ts', reason: 'r' },
      });
    }
    const upload = withKey(t, (await makeKey(t, { scope: 'upload', apps: ['shop'] })).key);
    const read = withKey(t, (await makeKey(t, { scope: 'read' })).key);

    // The admin's answer is cached; the limited upload key must not be served it, nor fill it.
    const adminFirst = await t.api({ method: 'GET', url: '/api/quarantine' });
    expect(adminFirst.json().data).toHaveLength(2);
    const limited = await upload({ method: 'GET', url: '/api/quarantine' });
    expect(limited.json().data.map((q: { appId: number }) => q.appId)).toEqual([shop]);
    const limitedAgain = await upload({ method: 'GET', url: '/api/quarantine' });
    expect(limitedAgain.json().data).toHaveLength(1);
    const adminAgain = await t.api({ method: 'GET', url: '/api/quarantine' });
    expect(adminAgain.json().data).toHaveLength(2);
    expect(adminAgain.headers.etag).toBe(adminFirst.headers.etag);
    // The admin's ETag does not revalidate the narrower answer.
    const revalidated = await upload({
      method: 'GET',
      url: '/api/quarantine',
      headers: { 'if-none-match': String(adminFirst.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.json().data).toHaveLength(1);

    // A cached /api/apps answer (admin) is still refused to the upload key, with or without ETag.
    const apps = await t.api({ method: 'GET', url: '/api/apps' });
    for (const headers of [{}, { 'if-none-match': String(apps.headers.etag) }]) {
      const refused = await upload({ method: 'GET', url: '/api/apps', headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain('App shop');
    }
    // The read key shares the admin's cached answer (same data), revalidating with its ETag.
    const readApps = await read({
      method: 'GET',
      url: '/api/apps',
      headers: { 'if-none-match': String(apps.headers.etag) },
    });
    expect(readApps.statusCode).toBe(304);
    // /api/keys is never answered to a read key, even with the admin's ETag.
    const keys = await t.api({ method: 'GET', url: '/api/keys' });
    const refusedKeys = await read({
      method: 'GET',
      url: '/api/keys',
      headers: { 'if-none-match': String(keys.headers.etag) },
    });
    expect(refusedKeys.statusCode).toBe(403);
  });

  it('an unknown /api path answers 404 to every valid key, whatever its scope', async () => {
    for (const scope of ['read', 'upload'] as const) {
      const { key } = await makeKey(t, { scope });
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await withKey(t, key, freshIp())({ method, url: '/api/no_such_resource' });
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('NOT_FOUND');
      }
    }
  });

  it('unknown keys count as failed attempts like wrong admin keys; revoked keys and valid keys out of scope do not', async () => {
    const read = await makeKey(t, { scope: 'read' });
    const revoked = await makeKey(t, { scope: 'read' });
    await t.api({ method: 'DELETE', url: `/api/keys/${revoked.id}` });
    const ip = freshIp();
    const statuses = async (key: string, times: number, method = 'GET', url = '/api/apps') => {
      const seen = [];
      for (let i = 0; i < times; i++)
        seen.push((await withKey(t, key, ip)({ method: method as 'GET', url })).statusCode);
      return seen;
    };
    expect(await statuses(read.key, 5, 'POST', '/api/to_do_list')).toEqual([403, 403, 403, 403, 403]);
    expect(await statuses(revoked.key, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(await statuses(read.key, 1)).toEqual([200]);
    // A well-formed key nobody made: counted, and the fourth failure blocks the address.
    const unknown = `tdk_${'A'.repeat(43)}`;
    expect(await statuses(unknown, 4)).toEqual([401, 401, 401, 429]);
    expect(await statuses(read.key, 1)).toEqual([429]);
    // The same for a wrong admin key from another address.
    const other = freshIp();
    const wrong = [];
    for (let i = 0; i < 4; i++) {
      wrong.push(
        (await withKey(t, 'wrong-admin-key', other)({ method: 'GET', url: '/api/apps' })).statusCode,
      );
    }
    expect(wrong).toEqual([401, 401, 401, 429]);
  });
});
