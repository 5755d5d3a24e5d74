import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshIp, makeKey, withKey } from '../../../support/key-support.js';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

const KEY_SHAPE = /^tdk_[A-Za-z0-9_-]{43}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

describe.each(DIALECTS)('API keys: /api/keys (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['api_keys']);
  const countKeys = async () => (await t.database.db.selectFrom('api_keys').selectAll().execute()).length;

  it('creates a key (201) with the exact shape; the key is shown once and stored only as its SHA-256', async () => {
    const expiresAt = inOneDay();
    const response = await t.api({
      method: 'POST',
      url: '/api/keys',
      payload: { name: ' Shop CI ', scope: 'upload', apps: ['shop', 'shop'], expiresAt },
    });
    expect(response.statusCode).toBe(201);
    const { success, data } = response.json();
    expect(success).toBe(true);
    expect(Object.keys(data).sort()).toEqual(
      ['apps', 'createdAt', 'expiresAt', 'id', 'key', 'lastUsedAt', 'name', 'prefix', 'scope'].sort(),
    );
    expect(data).toMatchObject({
      name: 'Shop CI',
      scope: 'upload',
      apps: ['shop'],
      expiresAt,
      lastUsedAt: null,
    });
    expect(data.key).toMatch(KEY_SHAPE);
    expect(data.prefix).toBe(data.key.slice(0, 12));
    expect(data.createdAt).toMatch(ISO);

    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(data.key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(data.key);
    expect(JSON.stringify(rows)).not.toContain(data.key.slice(12));

    const list = await t.api({ method: 'GET', url: '/api/keys' });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(data.key.slice(12));
    const [listed] = list.json().data;
    expect(Object.keys(listed).sort()).toEqual(
      ['apps', 'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scope'].sort(),
    );
    expect(listed).toMatchObject({ id: data.id, prefix: data.prefix, revokedAt: null, lastUsedAt: null });
  });

  it('makes every key different; admin and read keys need no apps and may leave out expiresAt', async () => {
    const admin = await makeKey(t, { scope: 'admin' });
    const read = await makeKey(t, { scope: 'read', apps: [] });
    const upload = await makeKey(t, { scope: 'upload' });
    expect(new Set([admin.key, read.key, upload.key]).size).toBe(3);
    const list = (await t.api({ method: 'GET', url: '/api/keys' })).json().data;
    expect(list.map((key: { scope: string }) => key.scope)).toEqual(['upload', 'read', 'admin']);
    expect(list.every((key: { apps: string[]; expiresAt: unknown }) => key.apps.length === 0)).toBe(true);
    expect(list.every((key: { expiresAt: unknown }) => key.expiresAt === null)).toBe(true);
  });

  it('lists newest first, with pagination only when asked, like the other lists', async () => {
    for (const name of ['one', 'two', 'three']) await makeKey(t, { name, scope: 'read' });
    const all = await t.api({ method: 'GET', url: '/api/keys' });
    expect(all.json().pagination).toBeUndefined();
    expect(all.json().data.map((key: { name: string }) => key.name)).toEqual(['three', 'two', 'one']);
    const page = (await t.api({ method: 'GET', url: '/api/keys?limit=2&offset=1' })).json();
    expect(page.data.map((key: { name: string }) => key.name)).toEqual(['two', 'one']);
    expect(page.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    const bad = await t.api({ method: 'GET', url: '/api/keys?limit=0' });
    expect(bad.statusCode).toBe(400);
  });

  it('answers a bad body with one 400 VALIDATION_ERROR naming each field once, storing nothing', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['name', 'scope']],
      [
        { name: '  ', scope: 'owner', apps: 'shop', expiresAt: 'soon' },
        ['name', 'scope', 'apps', 'expiresAt'],
      ],
      [
        {
          name: 'x'.repeat(101),
          scope: 'read',
          apps: ['shop'],
          expiresAt: new Date(Date.now() - 60_000).toISOString(),
        },
        ['name', 'apps', 'expiresAt'],
      ],
      [{ name: 'ok', scope: 'upload', apps: [''] }, ['apps.0']],
    ];
    for (const [payload, fields] of cases) {
      const response = await t.api({ method: 'POST', url: '/api/keys', payload: payload as object });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const { error } = response.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      const named = error.details.map((detail: { field: string }) => detail.field);
      expect([...named].sort(), JSON.stringify(payload)).toEqual([...fields].sort());
    }
    expect(await countKeys()).toBe(0);
  });

  it('revokes (204), answers 404 for an unknown id and 409 the second time; the key gets 401 at once', async () => {
    const read = await makeKey(t, { scope: 'read' });
    const asRead = withKey(t, read.key);
    expect((await asRead({ method: 'GET', url: '/api/apps' })).statusCode).toBe(200);
    const revoked = await t.api({ method: 'DELETE', url: `/api/keys/${read.id}` });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    const refused = await asRead({ method: 'GET', url: '/api/apps' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      success: false,
      error: 'Invalid or missing API key',
      code: 'UNAUTHORIZED',
    });
    const twice = await t.api({ method: 'DELETE', url: `/api/keys/${read.id}` });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('CONFLICT');
    for (const id of [read.id + 1000, 2_147_483_647]) {
      const unknown = await t.api({ method: 'DELETE', url: `/api/keys/${id}` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('NOT_FOUND');
    }
    expect((await t.api({ method: 'DELETE', url: '/api/keys/abc' })).statusCode).toBe(400);
    const [listed] = (await t.api({ method: 'GET', url: '/api/keys' })).json().data;
    expect(listed.revokedAt).toMatch(ISO);
    expect(listed.lastUsedAt).toMatch(ISO);
  });

  it('refuses a key once its expiry has passed', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const read = await makeKey(t, { scope: 'read', expiresAt });
    const asRead = withKey(t, read.key);
    expect((await asRead({ method: 'GET', url: '/api/apps' })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 20));
    expect((await asRead({ method: 'GET', url: '/api/apps' })).statusCode).toBe(401);
  });

  it('POST /api/auth/validate tells the scope and name of a good key, keeping the existing fields', async () => {
    const upload = await makeKey(t, { name: 'Shop CI', scope: 'upload', apps: ['shop'] });
    const validate = (apiKey: string, remoteAddress = freshIp()) =>
      t.app.inject({ method: 'POST', url: '/api/auth/validate', payload: { apiKey }, remoteAddress });
    const good = await validate(upload.key);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({
      valid: true,
      message: 'API key is valid',
      scope: 'upload',
      name: 'Shop CI',
    });
    const read = await makeKey(t, { name: 'Readers', scope: 'read' });
    // A read key may itself call the validation with its header.
    const asRead = await t.app.inject({
      method: 'POST',
      url: '/api/auth/validate',
      payload: { apiKey: read.key },
      headers: { 'x-api-key': read.key },
    });
    expect(asRead.json()).toMatchObject({ valid: true, scope: 'read', name: 'Readers' });

    await t.api({ method: 'DELETE', url: `/api/keys/${upload.id}` });
    const ip = freshIp();
    for (let attempt = 0; attempt < 5; attempt++) {
      const revoked = await validate(upload.key, ip);
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json()).toEqual({ valid: false, message: expect.any(String), attemptsRemaining: 3 });
    }
  });
});
