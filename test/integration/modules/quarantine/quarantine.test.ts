import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

interface ErrorBody {
  success: false;
  error: { code: string; statusCode: number; details?: { field: string; code: string }[] };
}

describe.each(DIALECTS)('quarantine API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['quarantines', 'apps']);

  const createApp = async (name = 'web') => {
    const response = await t.api({
      method: 'POST',
      url: '/api/apps',
      payload: { name, code: `${name}-code`, pipelineUrl: 'https://ci.example.com/p' },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ data: { id: number } }>().data.id;
  };
  const quarantine = (payload: object) => t.api({ method: 'POST', url: '/api/quarantine', payload });
  const get = (url: string) => t.api({ method: 'GET', url });

  it('creates a quarantine (201) with the exact shape, reads it back and lists it', async () => {
    const appId = await createApp();
    const expiresAt = inOneDay();
    const created = await quarantine({
      appId,
      spec: 'checkout.cy.ts',
      reason: 'Payment sandbox is down',
      ticketKey: 'PAY-42',
      expiresAt,
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'appId',
        'createdAt',
        'expiresAt',
        'id',
        'liftedAt',
        'liftedReason',
        'reason',
        'spec',
        'test',
        'ticketKey',
      ].sort(),
    );
    expect(body.data).toMatchObject({
      appId,
      spec: 'checkout.cy.ts',
      reason: 'Payment sandbox is down',
      ticketKey: 'PAY-42',
      expiresAt,
      liftedAt: null,
      liftedReason: null,
    });
    expect(body.data.createdAt).toMatch(ISO);

    const read = await get(`/api/quarantine/${body.data.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(body.data);

    const minimal = await quarantine({ appId, spec: 'search.cy.ts', reason: 'flaky backend' });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json().data).toMatchObject({ ticketKey: null, expiresAt: null });

    const list = await get('/api/quarantine');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((q: { spec: string }) => q.spec)).toEqual(['search.cy.ts', 'checkout.cy.ts']);
    expect(list.json().pagination).toBeUndefined();
  });

  it('lists newest first, paginated, filtered by app and by active', async () => {
    const web = await createApp('web');
    const api = await createApp('api');
    const ids: number[] = [];
    for (const [appId, spec] of [
      [web, 'a.cy.ts'],
      [api, 'b.cy.ts'],
      [web, 'c.cy.ts'],
    ] as const) {
      ids.push((await quarantine({ appId, spec, reason: 'known' })).json().data.id);
    }
    expect((await t.api({ method: 'DELETE', url: `/api/quarantine/${ids[0]}` })).statusCode).toBe(204);

    const page = await get('/api/quarantine?limit=2&offset=0');
    expect(page.json().data.map((q: { id: number }) => q.id)).toEqual([ids[2], ids[1]]);
    expect(page.json().pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const rest = await get('/api/quarantine?limit=2&offset=2');
    expect(rest.json().data.map((q: { id: number }) => q.id)).toEqual([ids[0]]);
    expect(rest.json().pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });

    const ofWeb = await get(`/api/quarantine?appId=${web}`);
    expect(ofWeb.json().data.map((q: { id: number }) => q.id)).toEqual([ids[2], ids[0]]);
    const active = await get(`/api/quarantine?appId=${web}&active=true`);
    expect(active.json().data.map((q: { id: number }) => q.id)).toEqual([ids[2]]);
    const lifted = await get('/api/quarantine?active=false');
    expect(lifted.json().data).toHaveLength(1);
    expect(lifted.json().data[0]).toMatchObject({ id: ids[0], liftedReason: 'manual' });
    expect(lifted.json().data[0].liftedAt).toMatch(ISO);
  });

  it('DELETE lifts once (204), then answers 404; the spec may be quarantined again', async () => {
    const appId = await createApp();
    const { id } = (await quarantine({ appId, spec: 'a.cy.ts', reason: 'known' })).json().data;
    const lift = await t.api({ method: 'DELETE', url: `/api/quarantine/${id}` });
    expect(lift.statusCode).toBe(204);
    expect(lift.body).toBe('');
    const again = await t.api({ method: 'DELETE', url: `/api/quarantine/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json<ErrorBody>().error.code).toBe('NOT_FOUND');
    expect((await get(`/api/quarantine/${id}`)).json().data).toMatchObject({ liftedReason: 'manual' });
    expect((await quarantine({ appId, spec: 'a.cy.ts', reason: 'back again' })).statusCode).toBe(201);
  });

  it('answers 404 for unknown ids and apps, 409 CONFLICT for a second active quarantine', async () => {
    const appId = await createApp();
    expect((await get('/api/quarantine/999999')).statusCode).toBe(404);
    expect((await t.api({ method: 'DELETE', url: '/api/quarantine/999999' })).statusCode).toBe(404);
    const unknownApp = await quarantine({ appId: appId + 1000, spec: 'a.cy.ts', reason: 'known' });
    expect(unknownApp.statusCode).toBe(404);
    expect(unknownApp.json<ErrorBody>().error.code).toBe('NOT_FOUND');
    expect((await get(`/api/quarantine?appId=${appId + 1000}`)).statusCode).toBe(404);

    expect((await quarantine({ appId, spec: 'a.cy.ts', reason: 'known' })).statusCode).toBe(201);
    const twice = await quarantine({ appId, spec: 'a.cy.ts', reason: 'again', ticketKey: 'QA-1' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<ErrorBody>().error).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    // Same spec name in another app is another spec.
    const other = await createApp('api');
    expect((await quarantine({ appId: other, spec: 'a.cy.ts', reason: 'known' })).statusCode).toBe(201);
    expect((await get('/api/quarantine?active=true')).json().data).toHaveLength(2);
  });

  it('lists every bad field in one 400 VALIDATION_ERROR and stores nothing', async () => {
    const appId = await createApp();
    const bad = await quarantine({
      appId,
      spec: 'a.cy.ts',
      reason: 'x'.repeat(501),
      ticketKey: 'not a key',
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(bad.statusCode).toBe(400);
    const error = bad.json<ErrorBody>().error;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details!.map((detail) => detail.field).sort()).toEqual(['expiresAt', 'reason', 'ticketKey']);

    const cases: [object, string][] = [
      [{ spec: 'a.cy.ts', reason: 'r' }, 'appId'],
      [{ appId, reason: 'r' }, 'spec'],
      [{ appId, spec: 'a.cy.ts' }, 'reason'],
      [{ appId, spec: 'a.cy.ts', reason: '' }, 'reason'],
      [{ appId, spec: 'a.cy.ts', reason: '   ' }, 'reason'],
      [{ appId: 'one', spec: 'a.cy.ts', reason: 'r' }, 'appId'],
      [{ appId, spec: 'a.cy.ts', reason: 'r', ticketKey: 'abc-123' }, 'ticketKey'],
      [{ appId, spec: 'a.cy.ts', reason: 'r', ticketKey: 'ABC-' }, 'ticketKey'],
      [{ appId, spec: 'a.cy.ts', reason: 'r', expiresAt: 'tomorrow' }, 'expiresAt'],
      [
        { appId, spec: 'a.cy.ts', reason: 'r', expiresAt: new Date(Date.now() - 1000).toISOString() },
        'expiresAt',
      ],
    ];
    for (const [payload, field] of cases) {
      const response = await quarantine(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const details = response.json<ErrorBody>().error.details!;
      expect(details.map((detail) => detail.field)).toEqual([field]);
    }
    expect((await quarantine({ appId, spec: 'a.cy.ts', reason: 'x'.repeat(500) })).statusCode).toBe(201);
    expect((await get('/api/quarantine')).json().data).toHaveLength(1);

    for (const url of [
      '/api/quarantine?active=maybe',
      '/api/quarantine?appId=0',
      '/api/quarantine?limit=101',
    ]) {
      expect((await get(url)).statusCode, url).toBe(400);
    }
    expect((await get('/api/quarantine/abc')).statusCode).toBe(400);
    expect((await t.api({ method: 'DELETE', url: '/api/quarantine/0' })).statusCode).toBe(400);
  });

  it('needs the API key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/quarantine' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/quarantine', payload: {} })).statusCode).toBe(
      401,
    );
  });
});
