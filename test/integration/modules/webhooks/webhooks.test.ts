import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

const SLACK_URL = 'https://hooks.slack.com/services/T0SECRET/B0SECRET/xoxsecretpath';
const ALL_TYPES = ['e2e_failure', 'e2e_success', 'pr_update', 'app_update', 'system', 'info'];
const SECRET = 'a-very-secret-signing-key';

describe.each(DIALECTS)('webhooks API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['webhooks']);

  const create = (body: unknown) => t.api({ method: 'POST', url: '/api/webhooks', payload: body as object });
  const update = (id: number, body: unknown) =>
    t.api({ method: 'PUT', url: `/api/webhooks/${id}`, payload: body as object });
  const storedSecret = async (id: number) =>
    (
      await t.database.db
        .selectFrom('webhooks')
        .select('secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).secret;
  const codesOf = (res: { json(): unknown }) =>
    (res.json() as { error: { details: { field: string; code: string }[] } }).error.details.map(
      (detail) => `${detail.field}:${detail.code}`,
    );

  it('creates a Slack webhook: 201, all six types by default, URL masked after the host, no secret', async () => {
    const res = await create({ url: SLACK_URL, kind: 'slack', name: 'QA channel' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        name: 'QA channel',
        kind: 'slack',
        url: 'https://hooks.slack.com/…',
        types: ALL_TYPES,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        lastDeliveryAt: null,
        lastStatus: null,
        lastError: null,
      },
    });
    expect(Object.keys(res.json().data).sort()).toEqual(
      ['createdAt', 'id', 'kind', 'lastDeliveryAt', 'lastError', 'lastStatus', 'name', 'types', 'url'].sort(),
    );
    // The full URL is stored (deliveries need it) but no answer ever carries its path.
    const id = res.json().data.id as number;
    for (const url of ['/api/webhooks', `/api/webhooks/${id}`]) {
      const read = await t.api({ method: 'GET', url });
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain('SECRET');
      expect(read.body).toContain('https://hooks.slack.com/…');
    }
  });

  it('creates a signed generic webhook: the secret is kept but never returned; types deduplicated in canonical order', async () => {
    const res = await create({
      url: 'https://example.com/hooks/dashboard?token=abc',
      kind: 'generic',
      types: ['pr_update', 'e2e_failure', 'pr_update'],
      secret: SECRET,
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      kind: 'generic',
      name: null,
      url: 'https://example.com/…',
      types: ['e2e_failure', 'pr_update'],
    });
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('token=abc');
    const stored = await t.database.db.selectFrom('webhooks').selectAll().executeTakeFirstOrThrow();
    expect(stored.secret).toBe(SECRET);
    expect(stored.url).toBe('https://example.com/hooks/dashboard?token=abc');
  });

  it('masks a port but keeps it, and drops credentials in the authority', async () => {
    const res = await create({ url: 'http://user:pw@hooks.example.com:8443/a/b', kind: 'teams' });
    expect(res.json().data.url).toBe('http://hooks.example.com:8443/…');
  });

  it('reports every problem of a bad body at once with the usual codes, and stores nothing', async () => {
    const missing = await create({ name: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('VALIDATION_ERROR');
    expect(codesOf(missing)).toEqual(expect.arrayContaining(['url:REQUIRED_FIELD', 'kind:REQUIRED_FIELD']));

    const bad = await create({
      url: 'javascript:alert(1)',
      kind: 'discord',
      types: ['e2e_failure', 'nope'],
      secret: 'short',
      name: 'n'.repeat(101),
    });
    expect(bad.statusCode).toBe(400);
    expect(codesOf(bad)).toEqual(
      expect.arrayContaining([
        'url:INVALID_URL',
        'kind:INVALID_VALUE',
        'types.1:INVALID_VALUE',
        'secret:INVALID_VALUE',
        'name:STRING_TOO_LONG',
      ]),
    );

    const tooLong = await create({ url: `https://example.com/${'a'.repeat(2000)}`, kind: 'generic' });
    expect(codesOf(tooLong)).toContain('url:STRING_TOO_LONG');
    const ftp = await create({ url: 'ftp://example.com/hook', kind: 'generic' });
    expect(codesOf(ftp)).toContain('url:INVALID_URL');
    const noTypes = await create({ url: SLACK_URL, kind: 'slack', types: [] });
    expect(codesOf(noTypes)).toContain('types:INVALID_VALUE');
    const wrongType = await create({ url: SLACK_URL, kind: 'slack', types: 'info' });
    expect(codesOf(wrongType)).toContain('types:INVALID_TYPE');
    const longSecret = await create({ url: SLACK_URL, kind: 'generic', secret: 's'.repeat(201) });
    expect(codesOf(longSecret)).toContain('secret:STRING_TOO_LONG');
    const slackSecret = await create({ url: SLACK_URL, kind: 'slack', secret: SECRET });
    expect(slackSecret.statusCode).toBe(400);
    expect(codesOf(slackSecret)).toEqual(['secret:INVALID_VALUE']);
    const empty = await t.api({ method: 'POST', url: '/api/webhooks' });
    expect(codesOf(empty)).toEqual(['body:EMPTY_BODY']);
    const text = await t.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: 'url=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(400);

    const list = await t.api({ method: 'GET', url: '/api/webhooks' });
    expect(list.json().data).toEqual([]);
  });

  it('lists with pagination when asked', async () => {
    for (const name of ['one', 'two', 'three']) await create({ url: SLACK_URL, kind: 'slack', name });
    const all = await t.api({ method: 'GET', url: '/api/webhooks' });
    expect(all.json().data.map((hook: { name: string }) => hook.name)).toEqual(['one', 'two', 'three']);
    expect(all.json()).not.toHaveProperty('pagination');
    const page = await t.api({ method: 'GET', url: '/api/webhooks?limit=2&offset=1' });
    expect(page.json().data.map((hook: { name: string }) => hook.name)).toEqual(['two', 'three']);
    expect(page.json().pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    const outOfRange = await t.api({ method: 'GET', url: '/api/webhooks?limit=101' });
    expect(codesOf(outOfRange)).toEqual(['limit:INVALID_VALUE']);
  });

  it('updates only the given fields; null clears name and secret; leaving generic drops the secret', async () => {
    const created = await create({
      url: 'https://example.com/hook',
      kind: 'generic',
      name: 'Ops',
      secret: SECRET,
      types: ['info'],
    });
    const id = created.json().data.id as number;

    const renamed = await update(id, { name: 'Ops bridge', id: 999, createdAt: 'x' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({
      id,
      name: 'Ops bridge',
      kind: 'generic',
      types: ['info'],
      url: 'https://example.com/…',
    });
    expect(await storedSecret(id)).toBe(SECRET);

    const retyped = await update(id, { types: ['system', 'info'], url: 'https://other.example.org/x' });
    expect(retyped.json().data).toMatchObject({
      types: ['system', 'info'],
      url: 'https://other.example.org/…',
    });

    const unsigned = await update(id, { secret: null, name: null });
    expect(unsigned.json().data).toMatchObject({ name: null });
    expect(await storedSecret(id)).toBeNull();

    await update(id, { secret: SECRET });
    const toTeams = await update(id, { kind: 'teams' });
    expect(toTeams.json().data).toMatchObject({ kind: 'teams' });
    expect(await storedSecret(id)).toBeNull();
    const secretOnTeams = await update(id, { secret: SECRET });
    expect(codesOf(secretOnTeams)).toEqual(['secret:INVALID_VALUE']);

    expect(codesOf(await update(id, {}))).toEqual(['body:EMPTY_BODY']);
    expect(codesOf(await update(id, { url: 'not a url' }))).toEqual(['url:INVALID_URL']);
    expect((await update(987654, { name: 'x' })).statusCode).toBe(404);
    expect(codesOf(await update(0, { name: 'x' }))).toEqual(['id:INVALID_ID']);
  });

  it('deletes: 200 {success, message}, then 404 everywhere', async () => {
    const id = (await create({ url: SLACK_URL, kind: 'slack' })).json().data.id as number;
    const removed = await t.api({ method: 'DELETE', url: `/api/webhooks/${id}` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: expect.any(String) });
    for (const [method, url] of [
      ['GET', `/api/webhooks/${id}`],
      ['DELETE', `/api/webhooks/${id}`],
      ['GET', `/api/webhooks/${id}/deliveries`],
      ['POST', `/api/webhooks/${id}/test`],
    ] as const) {
      const res = await t.api({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    const badId = await t.api({ method: 'GET', url: '/api/webhooks/abc/deliveries' });
    expect(codesOf(badId)).toEqual(['id:INVALID_ID']);
  });

  it('needs the API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/webhooks' });
    expect(res.statusCode).toBe(401);
  });
});
