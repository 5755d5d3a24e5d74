import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

describe.each(DIALECTS)('POST /api/notifications/read_all (%s)', (dialect) => {
  const t = suiteTestApp({ dialect });
  beforeEach(async () => {
    await t.database.db.deleteFrom('notifications').execute();
    for (const type of ['e2e_failure', 'e2e_failure', 'pr_update', 'info']) {
      await t.api({ method: 'POST', url: '/api/notifications', payload: { title: 'T', message: 'M', type } });
    }
    // One already read: it is not counted again.
    const { data } = (
      await t.api({
        method: 'POST',
        url: '/api/notifications',
        payload: { title: 'T', message: 'M', type: 'e2e_failure' },
      })
    ).json();
    await t.api({ method: 'PATCH', url: `/api/notifications/${data.id}/read` });
  });

  const readAll = (options: { query?: string; payload?: unknown; headers?: Record<string, string> } = {}) =>
    t.api({
      method: 'POST',
      url: `/api/notifications/read_all${options.query ?? ''}`,
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
      ...(options.headers ? { headers: options.headers } : {}),
    });
  const unreadTypes = async () =>
    (await t.api({ method: 'GET', url: '/api/notifications?isRead=false' }))
      .json()
      .data.map((n: { type: string }) => n.type)
      .sort();

  it('marks every unread notification read without a body, and returns the count', async () => {
    const res = await readAll();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { updated: 4 } });
    expect(await unreadTypes()).toEqual([]);
    expect((await readAll()).json().data.updated).toBe(0);
  });

  it('accepts an empty JSON body or {} like no body', async () => {
    expect((await readAll({ payload: {} })).json().data.updated).toBe(4);
    const empty = await readAll({ headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data.updated).toBe(0);
  });

  it('limits itself to one type given as ?type= or as {type}', async () => {
    const byQuery = await readAll({ query: '?type=e2e_failure' });
    expect(byQuery.json()).toEqual({ success: true, data: { updated: 2 } });
    expect(await unreadTypes()).toEqual(['info', 'pr_update']);
    const byBody = await readAll({ payload: { type: 'pr_update' } });
    expect(byBody.json()).toEqual({ success: true, data: { updated: 1 } });
    expect(await unreadTypes()).toEqual(['info']);
    expect((await readAll({ query: '?type=info', payload: { type: 'info' } })).json().data.updated).toBe(1);
  });

  it('refuses an invalid type (query or body) with 400 VALIDATION_ERROR on field type, changing nothing', async () => {
    for (const options of [
      { query: '?type=alert' },
      { query: '?type=' },
      { payload: { type: 'alert' } },
      { payload: { type: 7 } },
      { query: '?type=info', payload: { type: 'pr_update' } },
    ]) {
      const res = await readAll(options);
      expect(res.statusCode, JSON.stringify(options)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect([...new Set(res.json().error.details.map((d: { field: string }) => d.field))]).toEqual(['type']);
    }
    expect(await unreadTypes()).toEqual(['e2e_failure', 'e2e_failure', 'info', 'pr_update']);
  });

  it('answers malformed bodies with 400 and needs the key', async () => {
    expect(
      (await readAll({ payload: '{', headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(400);
    expect(
      (await readAll({ payload: 'type=info', headers: { 'content-type': 'text/plain' } })).statusCode,
    ).toBe(400);
    expect((await readAll({ payload: [] })).statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/notifications/read_all' });
    expect(anonymous.statusCode).toBe(401);
    expect(await unreadTypes()).toHaveLength(4);
  });
});
