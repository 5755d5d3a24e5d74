import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

const valid = (overrides: Record<string, unknown> = {}) => ({
  title: 'Checkout failed',
  message: 'The nightly run of Checkout failed',
  type: 'e2e_failure',
  ...overrides,
});

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)('notifications API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['notifications', 'apps']);

  const create = (body: unknown) =>
    t.api({ method: 'POST', url: '/api/notifications', payload: body as object });
  const list = (query = '') => t.api({ method: 'GET', url: `/api/notifications${query}` });

  it('creates a notification: 201, unread, data kept, no link field', async () => {
    const res = await create(valid({ data: { appId: 3, appName: 'Checkout', runId: 812, failureCount: 2 } }));
    expect(res.statusCode).toBe(201);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data).toEqual({
      id: expect.any(Number),
      ...valid(),
      isRead: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: { appId: 3, appName: 'Checkout', runId: 812, failureCount: 2 },
    });
    const read = await t.api({ method: 'GET', url: `/api/notifications/${data.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ success: true, data });
  });

  it('omits data when none was given', async () => {
    const res = await create(valid());
    expect(res.json().data).not.toHaveProperty('data');
  });

  it('validates the input: required fields, type, blank and long text, data shape', async () => {
    const missing = await create({ data: {} });
    expect(missing.statusCode).toBe(400);
    const fields = missing
      .json()
      .error.details.map((d: { field: string; code: string }) => [d.field, d.code]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['title', 'REQUIRED_FIELD'],
        ['message', 'REQUIRED_FIELD'],
        ['type', 'REQUIRED_FIELD'],
      ]),
    );
    const bad = await create({ title: '  ', message: 'x'.repeat(4001), type: 'alert', data: [1] });
    expect(bad.statusCode).toBe(400);
    const codes = Object.fromEntries(
      bad.json().error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
    );
    expect(codes).toEqual({
      title: 'EMPTY_FIELD',
      message: 'STRING_TOO_LONG',
      type: 'INVALID_VALUE',
      data: 'INVALID_TYPE',
    });
    expect((await create(undefined)).json().error.details[0]).toMatchObject({
      field: 'body',
      code: 'EMPTY_BODY',
    });
  });

  it('accepts every type of the spec', async () => {
    for (const type of ['e2e_failure', 'e2e_success', 'pr_update', 'app_update', 'system', 'info']) {
      expect((await create(valid({ type }))).statusCode).toBe(201);
    }
  });

  it('lists newest first, filters by isRead and type, paginates', async () => {
    const a = (await create(valid({ title: 'A', type: 'info' }))).json().data;
    const b = (await create(valid({ title: 'B', type: 'system' }))).json().data;
    const c = (await create(valid({ title: 'C', type: 'info' }))).json().data;
    await t.api({ method: 'PATCH', url: `/api/notifications/${b.id}/read` });

    const all = await list();
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((n: { title: string }) => n.title)).toEqual(['C', 'B', 'A']);
    expect(all.json()).not.toHaveProperty('pagination');

    const titles = async (query: string) =>
      (await list(query)).json().data.map((n: { title: string }) => n.title);
    expect(await titles('?isRead=true')).toEqual(['B']);
    expect(await titles('?isRead=false')).toEqual(['C', 'A']);
    expect(await titles('?type=info')).toEqual(['C', 'A']);
    expect(await titles('?type=info&isRead=false')).toEqual(['C', 'A']);
    expect(await titles('?type=pr_update')).toEqual([]);
    expect(await titles('?order=asc')).toEqual(['A', 'B', 'C']);

    const page = await list('?limit=1&offset=1');
    expect(page.json().data.map((n: { id: number }) => n.id)).toEqual([b.id]);
    expect(page.json().pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
    expect((await list('?type=info&limit=5')).json().pagination).toEqual({
      total: 2,
      limit: 5,
      offset: 0,
      hasMore: false,
    });
    expect(a.id).toBeLessThan(c.id);
  });

  it('refuses invalid filter and paging values with 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['?isRead=maybe', 'isRead'],
      ['?type=alert', 'type'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?offset=-1', 'offset'],
      ['?order=sideways', 'order'],
      ['?sort=title', 'sort'],
    ] as const) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('marks as read with PATCH and POST (204, no body)', async () => {
    const first = (await create(valid())).json().data;
    const second = (await create(valid())).json().data;
    const patch = await t.api({ method: 'PATCH', url: `/api/notifications/${first.id}/read` });
    expect(patch.statusCode).toBe(204);
    expect(patch.body).toBe('');
    const post = await t.api({ method: 'POST', url: `/api/notifications/${second.id}/read` });
    expect(post.statusCode).toBe(204);
    expect(post.body).toBe('');
    for (const id of [first.id, second.id]) {
      expect((await t.api({ method: 'GET', url: `/api/notifications/${id}` })).json().data.isRead).toBe(true);
    }
    // Marking twice is fine.
    expect((await t.api({ method: 'PATCH', url: `/api/notifications/${first.id}/read` })).statusCode).toBe(
      204,
    );
  });

  it('updates only the given fields; data null clears it; isRead both ways', async () => {
    const created = (await create(valid({ data: { appId: 1 } }))).json().data;
    const url = `/api/notifications/${created.id}`;
    const res = await t.api({ method: 'PUT', url, payload: { title: 'Renamed', isRead: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ...created, title: 'Renamed', isRead: true });
    const cleared = await t.api({ method: 'PUT', url, payload: { data: null, isRead: false, type: 'info' } });
    const { data: _data, ...withoutData } = created;
    expect(cleared.json().data).toEqual({ ...withoutData, title: 'Renamed', type: 'info' });
    const empty = await t.api({ method: 'PUT', url, payload: { id: 5, createdAt: 'x' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details[0]).toMatchObject({ field: 'body', code: 'EMPTY_BODY' });
    const wrong = await t.api({ method: 'PUT', url, payload: { type: 'nope', isRead: 'yes' } });
    expect(wrong.statusCode).toBe(400);
  });

  it('deletes (204, no body) and then answers 404', async () => {
    const created = (await create(valid())).json().data;
    const res = await t.api({ method: 'DELETE', url: `/api/notifications/${created.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.api({ method: 'GET', url: `/api/notifications/${created.id}` })).statusCode).toBe(404);
  });

  it('answers 404 for every operation on a missing notification, 400 for a bad id', async () => {
    const requests = [
      { method: 'GET', url: '/api/notifications/999999' },
      { method: 'PUT', url: '/api/notifications/999999', payload: { isRead: true } },
      { method: 'PATCH', url: '/api/notifications/999999/read' },
      { method: 'POST', url: '/api/notifications/999999/read' },
      { method: 'DELETE', url: '/api/notifications/999999' },
      { method: 'GET', url: '/api/notifications/99999999999999' },
    ] as const;
    for (const request of requests) {
      const res = await t.api(request);
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    }
    for (const url of ['/api/notifications/abc', '/api/notifications/0', '/api/notifications/-1/read']) {
      const res = await t.api({ method: url.endsWith('read') ? 'PATCH' : 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details[0].code).toBe('INVALID_ID');
    }
  });

  it('requires the API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications' });
    expect(res.statusCode).toBe(401);
  });

  it('creates app_update notifications when apps are created, (un)watched and deleted', async () => {
    const app = (
      await t.api({
        method: 'POST',
        url: '/api/apps',
        payload: { name: 'Checkout', code: 'checkout', pipelineUrl: 'https://ci.example.com/checkout' },
      })
    ).json().data;
    await t.api({ method: 'PUT', url: `/api/apps/${app.id}`, payload: { watching: false } });
    await t.api({ method: 'PUT', url: `/api/apps/${app.id}`, payload: { name: 'Checkout v2' } });
    await t.api({ method: 'DELETE', url: `/api/apps/${app.id}` });

    const updates = await eventually(async () => {
      const data = (await list('?type=app_update&order=asc')).json().data;
      return data.length >= 3 ? data : undefined;
    });
    expect(updates.map((n: { data: unknown }) => n.data)).toEqual([
      { appId: app.id, appName: 'Checkout', changeType: 'created' },
      { appId: app.id, appName: 'Checkout', changeType: 'watching_changed' },
      { appId: app.id, appName: 'Checkout v2', changeType: 'deleted' },
    ]);
    expect(updates[1].message).toContain('no longer watched');
    // A rename is not worth a notification.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await list('?type=app_update')).json().data).toHaveLength(3);
  });
});
