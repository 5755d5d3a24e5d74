import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { suiteTestApp } from '../../support/suite-app.js';
import { BAD_IDS, expectEnvelope, ISO_TIMESTAMP, type Json } from '../../support/acceptance-support.js';

const SLACK_URL = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
const ALL_TYPES = ['e2e_failure', 'e2e_success', 'pr_update', 'app_update', 'system', 'info'];
const WEBHOOK_FIELDS = [
  'createdAt',
  'id',
  'kind',
  'lastDeliveryAt',
  'lastError',
  'lastStatus',
  'name',
  'types',
  'url',
];

// Each sentence of the webhook API contract, checked from the outside on both dialects.
describe.each(DIALECTS)('acceptance: webhooks API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['webhooks']);

  const create = (payload: object) => t.api({ method: 'POST', url: '/api/webhooks', payload });
  const count = async () => (await t.database.db.selectFrom('webhooks').select('id').execute()).length;
  const created = async (payload: object) => {
    const response = await create(payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Json>().data as Json;
  };

  it('POST answers 201 {success, data: Webhook} with exactly the Webhook fields, all six types by default', async () => {
    const response = await create({ url: SLACK_URL, kind: 'slack' });
    expect(response.statusCode).toBe(201);
    const body = response.json<Json>();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(Object.keys(body.data).sort()).toEqual(WEBHOOK_FIELDS);
    expect(body.data).toMatchObject({
      id: expect.any(Number),
      name: null,
      kind: 'slack',
      url: 'https://hooks.slack.com/…',
      types: ALL_TYPES,
      lastDeliveryAt: null,
      lastStatus: null,
      lastError: null,
    });
    expect(body.data.createdAt).toMatch(ISO_TIMESTAMP);
  });

  it('masks every URL after the host (port kept, credentials, query and fragment dropped) and never returns the secret', async () => {
    const secret = 's'.repeat(16) + '-signing-secret';
    const generic = await created({
      url: 'https://user:pw@example.com:8443/in/hook?token=abc#frag',
      kind: 'generic',
      secret,
      name: 'Build bus',
      types: ['system'],
    });
    expect(generic.url).toBe('https://example.com:8443/…');
    expect(generic).not.toHaveProperty('secret');
    const teams = await created({ url: 'http://teams.example.org/webhookb2/abc', kind: 'teams' });
    expect(teams.url).toBe('http://teams.example.org/…');
    for (const url of ['/api/webhooks', `/api/webhooks/${generic.id}`, '/api/webhooks?limit=10']) {
      const response = await t.api({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      for (const leak of [secret, 'token=abc', '/in/hook', 'user:pw', 'webhookb2']) {
        expect(response.body).not.toContain(leak);
      }
    }
  });

  it('keeps the given types in their canonical order and without repeats', async () => {
    const webhook = await created({ url: SLACK_URL, kind: 'slack', types: ['info', 'e2e_failure', 'info'] });
    expect(webhook.types).toEqual(['e2e_failure', 'info']);
  });

  it('accepts the boundaries: name of 100, secret of 16 and 200, URL of 2000 characters', async () => {
    const longUrl = `https://example.com/${'p'.repeat(2000 - 'https://example.com/'.length)}`;
    expect(longUrl).toHaveLength(2000);
    await created({ url: longUrl, kind: 'generic', name: 'n'.repeat(100), secret: 'k'.repeat(16) });
    await created({ url: SLACK_URL, kind: 'generic', secret: 'k'.repeat(200) });
  });

  it.each([
    ['types empty', { types: [] }, 'types'],
    ['types not an array', { types: 'system' }, 'types'],
    ['unknown type', { types: ['e2e_failure', 'deploy'] }, 'types'],
    ['unknown kind', { kind: 'discord' }, 'kind'],
    ['secret on slack', { kind: 'slack', secret: 'k'.repeat(20) }, 'secret'],
    ['secret on teams', { kind: 'teams', secret: 'k'.repeat(20) }, 'secret'],
    ['secret of 15', { secret: 'k'.repeat(15) }, 'secret'],
    ['secret of 201', { secret: 'k'.repeat(201) }, 'secret'],
    ['name of 101', { name: 'n'.repeat(101) }, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['URL of 2001', { url: `https://example.com/${'p'.repeat(1981)}` }, 'url'],
    ['relative URL', { url: '/hooks/1' }, 'url'],
    ['ftp URL', { url: 'ftp://example.com/hook' }, 'url'],
    ['javascript URL', { url: 'javascript:alert(1)' }, 'url'],
    ['URL without host', { url: 'https://' }, 'url'],
    ['URL not a string', { url: 42 }, 'url'],
    ['NUL in name', { name: 'a\u0000b' }, 'name'],
  ])(
    'POST with %s → 400 VALIDATION_ERROR naming the field, nothing stored',
    async (_label, change, field) => {
      const response = await create({ url: SLACK_URL, kind: 'generic', ...change });
      const details = expectEnvelope(response, 400, 'VALIDATION_ERROR');
      expect(details.some((detail) => detail.startsWith(`${field}`))).toBe(true);
      expect(await count()).toBe(0);
    },
  );

  it('POST reports every missing field in one answer, and the usual body errors', async () => {
    expect(expectEnvelope(await create({}), 400, 'VALIDATION_ERROR')).toEqual(
      expect.arrayContaining(['url:REQUIRED_FIELD', 'kind:REQUIRED_FIELD']),
    );
    expect(
      expectEnvelope(await t.api({ method: 'POST', url: '/api/webhooks' }), 400, 'VALIDATION_ERROR'),
    ).toEqual(['body:EMPTY_BODY']);
    const form = await t.api({
      method: 'POST',
      url: '/api/webhooks',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'url=x&kind=slack',
    });
    expect(expectEnvelope(form, 400, 'VALIDATION_ERROR')).toEqual(['content-type:INVALID_CONTENT_TYPE']);
    const malformed = await t.api({
      method: 'POST',
      url: '/api/webhooks',
      headers: { 'content-type': 'application/json' },
      payload: '{"url":',
    });
    expect(expectEnvelope(malformed, 400, 'VALIDATION_ERROR')).toEqual(['body:INVALID_JSON']);
    for (const payload of ['null', '[]', '"text"', '7']) {
      const response = await t.api({
        method: 'POST',
        url: '/api/webhooks',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectEnvelope(response, 400, 'VALIDATION_ERROR');
    }
    expect(await count()).toBe(0);
  });

  it('GET list is paginated like every list, newest state of each webhook', async () => {
    for (let index = 0; index < 3; index += 1)
      await created({ url: SLACK_URL, kind: 'slack', name: `w${index}` });
    const plain = (await t.api({ method: 'GET', url: '/api/webhooks' })).json<Json>();
    expect(plain.data).toHaveLength(3);
    expect(plain.pagination).toBeUndefined();
    const page = (await t.api({ method: 'GET', url: '/api/webhooks?limit=2&offset=1' })).json<Json>();
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'offset=1.5']) {
      const response = await t.api({ method: 'GET', url: `/api/webhooks?${query}` });
      expect(expectEnvelope(response, 400, 'VALIDATION_ERROR').length).toBeGreaterThan(0);
    }
  });

  it('PUT changes only the given fields; a subset of one field is enough', async () => {
    const secret = 'k'.repeat(24);
    const original = await created({
      url: SLACK_URL,
      kind: 'generic',
      name: 'Bus',
      secret,
      types: ['system'],
    });
    const renamed = await t.api({
      method: 'PUT',
      url: `/api/webhooks/${original.id}`,
      payload: { name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<Json>()).toEqual({ success: true, data: { ...original, name: 'Renamed' } });
    const stored = await t.database.db
      .selectFrom('webhooks')
      .select(['secret', 'url'])
      .where('id', '=', original.id as number)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ secret, url: SLACK_URL });

    const retyped = await t.api({
      method: 'PUT',
      url: `/api/webhooks/${original.id}`,
      payload: { types: ['e2e_failure'], url: 'https://other.example.com/x' },
    });
    expect(retyped.json<Json>().data).toMatchObject({
      name: 'Renamed',
      types: ['e2e_failure'],
      url: 'https://other.example.com/…',
      kind: 'generic',
    });
  });

  it('PUT refuses what POST refuses, and an empty or field-less body, changing nothing', async () => {
    const original = await created({ url: SLACK_URL, kind: 'slack', name: 'Chat' });
    const put = (payload?: object) =>
      t.api({ method: 'PUT', url: `/api/webhooks/${original.id}`, ...(payload ? { payload } : {}) });
    for (const payload of [
      { types: [] },
      { secret: 'k'.repeat(20) },
      { name: 'n'.repeat(101) },
      { url: 'mailto:qa@example.com' },
      { kind: 'email' },
    ]) {
      expectEnvelope(await put(payload), 400, 'VALIDATION_ERROR');
    }
    expect(expectEnvelope(await put({}), 400, 'VALIDATION_ERROR')).toEqual(['body:EMPTY_BODY']);
    expect(expectEnvelope(await put(), 400, 'VALIDATION_ERROR')).toEqual(['body:EMPTY_BODY']);
    expect((await t.api({ method: 'GET', url: `/api/webhooks/${original.id}` })).json<Json>().data).toEqual(
      original,
    );
  });

  it('DELETE answers 200 {success, message}; the webhook is gone afterwards (404)', async () => {
    const webhook = await created({ url: SLACK_URL, kind: 'slack' });
    const response = await t.api({ method: 'DELETE', url: `/api/webhooks/${webhook.id}` });
    expect(response.statusCode).toBe(200);
    const body = response.json<Json>();
    expect(Object.keys(body).sort()).toEqual(['message', 'success']);
    expect(body).toEqual({ success: true, message: expect.any(String) });
    for (const [method, suffix] of [
      ['GET', ''],
      ['DELETE', ''],
      ['GET', '/deliveries'],
      ['POST', '/test'],
    ] as const) {
      expectEnvelope(await t.api({ method, url: `/api/webhooks/${webhook.id}${suffix}` }), 404, 'NOT_FOUND');
    }
    expectEnvelope(
      await t.api({ method: 'PUT', url: `/api/webhooks/${webhook.id}`, payload: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('every /:id route answers 400 INVALID_ID for ids that are not positive integers', async () => {
    for (const id of BAD_IDS) {
      for (const [method, suffix, payload] of [
        ['GET', '', undefined],
        ['PUT', '', { name: 'x' }],
        ['DELETE', '', undefined],
        ['POST', '/test', undefined],
        ['GET', '/deliveries', undefined],
      ] as const) {
        const response = await t.api({
          method,
          url: `/api/webhooks/${id}${suffix}`,
          ...(payload ? { payload } : {}),
        });
        expect(expectEnvelope(response, 400, 'VALIDATION_ERROR'), `${method} ${id}${suffix}`).toContain(
          'id:INVALID_ID',
        );
      }
    }
  });

  it('every webhook route answers 401 without the key, and changes nothing', async () => {
    const webhook = await created({ url: SLACK_URL, kind: 'slack' });
    for (const [method, url] of [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks'],
      ['GET', `/api/webhooks/${webhook.id}`],
      ['PUT', `/api/webhooks/${webhook.id}`],
      ['DELETE', `/api/webhooks/${webhook.id}`],
      ['POST', `/api/webhooks/${webhook.id}/test`],
      ['GET', `/api/webhooks/${webhook.id}/deliveries`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        payload: { url: SLACK_URL, kind: 'slack', name: 'x' },
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await count()).toBe(1);
  });
});
