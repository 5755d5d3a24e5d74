import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';
import { pathsWithNul } from '../../../../src/http/plumbing/nul-check.js';

const NUL = '\u0000';

interface Envelope {
  success: false;
  error: { code: string; statusCode: number; details: { field: string; code: string; message: string }[] };
}

describe('pathsWithNul', () => {
  it('finds NUL in nested strings and keys, and survives deep nesting', () => {
    expect(pathsWithNul({ a: 'x', b: [`y${NUL}`, { [`k${NUL}`]: 1, 'c/d': NUL }] })).toEqual([
      '/b/0',
      '/b/1/c~1d',
      `/b/1/k${NUL}`,
    ]);
    let deep: unknown = NUL;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(pathsWithNul(deep)).toHaveLength(1);
    expect(pathsWithNul({ a: 1, b: null, c: true, d: 'text' })).toEqual([]);
  });
});

/**
 * PostgreSQL refuses text holding NUL (it used to surface as a 500) while SQLite stores it: both
 * dialects must answer the same 400 and store nothing, for every kind of string input.
 */
describe.each(DIALECTS)('NUL characters in requests (%s)', (dialect) => {
  let t: TestApp;
  let appId: number;
  let todoId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    appId = (
      await t.api({
        method: 'POST',
        url: '/api/apps',
        payload: { name: 'web', code: 'web', pipelineUrl: 'https://ci.example.com/web' },
      })
    ).json().data.id;
    todoId = (await t.api({ method: 'POST', url: '/api/to_do_list', payload: { title: 'clean' } })).json()
      .data.id;
  });
  afterAll(async () => t.close());

  const counts = async () => ({
    apps: await t.database.db
      .selectFrom('apps')
      .select(['name', 'code', 'e2e_trigger_configuration', 'updated_at'])
      .execute(),
    todos: await t.database.db.selectFrom('todos').select(['title', 'description', 'updated_at']).execute(),
    notifications: (await t.database.db.selectFrom('notifications').select('id').execute()).length,
    tokens: (await t.database.db.selectFrom('device_tokens').select('id').execute()).length,
    pullRequests: (await t.database.db.selectFrom('pull_requests').select('id').execute()).length,
  });

  const cases: [string, 'POST' | 'PUT' | 'GET', () => string, object | undefined, string][] = [
    ['to-do title', 'POST', () => '/api/to_do_list', { title: `a${NUL}b` }, 'title'],
    ['to-do description', 'POST', () => '/api/to_do_list', { title: 'ok', description: NUL }, 'description'],
    ['to-do update', 'PUT', () => `/api/to_do_list/${todoId}`, { title: `x${NUL}` }, 'title'],
    [
      'app name',
      'POST',
      () => '/api/apps',
      { name: `n${NUL}`, code: 'n', pipelineUrl: 'https://ci/x' },
      'name',
    ],
    ['app code', 'PUT', () => `/api/apps/${appId}`, { code: `c${NUL}` }, 'code'],
    [
      'app trigger parameters',
      'PUT',
      () => `/api/apps/${appId}`,
      { e2eTriggerConfiguration: { enabled: false, parameters: { suite: `s${NUL}` } } },
      'e2eTriggerConfiguration.parameters.suite',
    ],
    [
      'notification title',
      'POST',
      () => '/api/notifications',
      { type: 'system', title: `t${NUL}`, message: 'm' },
      'title',
    ],
    [
      'notification message',
      'POST',
      () => '/api/notifications',
      { type: 'system', title: 't', message: `m${NUL}` },
      'message',
    ],
    [
      'pull request title',
      'POST',
      () => '/api/pull_requests',
      { url: 'https://github.com/acme/web/pull/1', title: `p${NUL}` },
      'title',
    ],
    ['push token', 'POST', () => '/api/push/register', { token: `tok${NUL}en` }, 'token'],
    ['query parameter', 'GET', () => `/api/notifications?type=%00`, undefined, 'type'],
  ];

  it.each(cases)('refuses NUL in the %s with 400 VALIDATION_ERROR and stores nothing', async (...row) => {
    const [, method, url, payload, field] = row;
    const before = await counts();
    const response = await t.api({ method, url: url(), ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(400);
    const body = response.json<Envelope>();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details).toContainEqual(
      expect.objectContaining({ field, code: 'INVALID_VALUE', message: expect.stringContaining('NUL') }),
    );
    expect(await counts()).toEqual(before);
  });

  it('still accepts other control and non-ASCII characters', async () => {
    const title = 'tab\there, é, 漢字, emoji 🎉';
    const response = await t.api({ method: 'POST', url: '/api/to_do_list', payload: { title } });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.title).toBe(title);
  });
});
