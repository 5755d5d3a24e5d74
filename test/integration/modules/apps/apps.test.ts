import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

const validApp = (overrides: Record<string, unknown> = {}) => ({
  name: 'Checkout',
  code: 'checkout',
  pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/checkout',
  ...overrides,
});

describe.each(DIALECTS)('applications API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['apps']);

  const create = (body: unknown) => t.api({ method: 'POST', url: '/api/apps', payload: body as object });

  it('creates with defaults, lastRun null and no runs', async () => {
    const res = await create(validApp());
    expect(res.statusCode).toBe(201);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data).toMatchObject({ ...validApp(), watching: true, lastRun: null, e2eRunsQuantity: 0 });
    expect(data.id).toBeTypeOf('number');
    expect(data.e2eTriggerConfiguration).toBeNull();
  });

  it('stores the trigger configuration and watching=false', async () => {
    const trigger = {
      enabled: true,
      schedule: '30 8 * * 1-5',
      branch: 'main',
      parameters: { suite: 'smoke' },
    };
    const res = await create(validApp({ watching: false, e2eTriggerConfiguration: trigger }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ watching: false, e2eTriggerConfiguration: trigger });
    const read = await t.api({ method: 'GET', url: `/api/apps/${res.json().data.id}` });
    expect(read.json().data.e2eTriggerConfiguration).toEqual(trigger);
  });

  it('reports every problem of a bad body at once', async () => {
    const res = await create({ name: 'x'.repeat(256), code: 7, pipelineUrl: 'ftp://x', watching: 'yes' });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.statusCode).toBe(400);
    const codes = Object.fromEntries(
      error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
    );
    expect(codes).toEqual({
      name: 'STRING_TOO_LONG',
      code: 'INVALID_TYPE',
      pipelineUrl: 'INVALID_URL',
      watching: 'INVALID_TYPE',
    });
  });

  it('names missing required fields', async () => {
    const res = await create({ watching: true });
    const fields = res
      .json()
      .error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`);
    expect(fields.sort()).toEqual([
      'code:REQUIRED_FIELD',
      'name:REQUIRED_FIELD',
      'pipelineUrl:REQUIRED_FIELD',
    ]);
  });

  it.each([
    [{ enabled: true, schedule: 'not cron' }, 'e2eTriggerConfiguration.schedule', 'INVALID_FORMAT'],
    [{ schedule: '0 9 * * *' }, 'e2eTriggerConfiguration.enabled', 'REQUIRED_FIELD'],
    [{ enabled: 'yes' }, 'e2eTriggerConfiguration.enabled', 'INVALID_TYPE'],
    ['daily', 'e2eTriggerConfiguration', 'INVALID_TYPE'],
  ])('validates the trigger configuration %j', async (trigger, field, code) => {
    const res = await create(validApp({ e2eTriggerConfiguration: trigger }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toContainEqual(expect.objectContaining({ field, code }));
  });

  it('accepts the limits exactly and refuses one more', async () => {
    const url = `https://ci.example.com/${'p'.repeat(500 - 'https://ci.example.com/'.length)}`;
    const ok = await create({ name: 'n'.repeat(255), code: 'c'.repeat(100), pipelineUrl: url });
    expect(ok.statusCode).toBe(201);
    const tooLong = await create({ name: 'n', code: 'c'.repeat(101), pipelineUrl: `${url}x` });
    expect(tooLong.json().error.details.map((d: { code: string }) => d.code)).toEqual([
      'STRING_TOO_LONG',
      'STRING_TOO_LONG',
    ]);
  });

  it('refuses blank names and codes', async () => {
    const res = await create(validApp({ name: '   ', code: '' }));
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ field: 'name', code: 'EMPTY_FIELD' }),
      expect.objectContaining({ field: 'code', code: 'EMPTY_FIELD' }),
    ]);
  });

  it('answers 409 for a duplicate code at create and at change', async () => {
    await create(validApp());
    const other = (await create(validApp({ code: 'other' }))).json().data;
    const duplicate = await create(validApp({ name: 'Another' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.code).toBe('CONFLICT');
    const change = await t.api({
      method: 'PUT',
      url: `/api/apps/${other.id}`,
      payload: { code: 'checkout' },
    });
    expect(change.statusCode).toBe(409);
    const unchanged = await t.api({ method: 'GET', url: `/api/apps/${other.id}` });
    expect(unchanged.json().data.code).toBe('other');
  });

  it('changes only the given fields and ignores output-only ones', async () => {
    const created = (await create(validApp({ e2eTriggerConfiguration: { enabled: false } }))).json().data;
    const res = await t.api({
      method: 'PUT',
      url: `/api/apps/${created.id}`,
      payload: { name: 'Renamed', id: 999, lastRun: { id: 1 }, e2eRunsQuantity: 5 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: created.id,
      name: 'Renamed',
      code: created.code,
      pipelineUrl: created.pipelineUrl,
      watching: true,
      e2eTriggerConfiguration: { enabled: false },
      e2eRunsQuantity: 0,
    });
    const cleared = await t.api({
      method: 'PUT',
      url: `/api/apps/${created.id}`,
      payload: { e2eTriggerConfiguration: null },
    });
    expect(cleared.json().data.e2eTriggerConfiguration).toBeNull();
  });

  it('keeping the same code on change is not a conflict', async () => {
    const created = (await create(validApp())).json().data;
    const res = await t.api({
      method: 'PUT',
      url: `/api/apps/${created.id}`,
      payload: { code: 'checkout', watching: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.watching).toBe(false);
  });

  it('treats a PUT without updatable fields as an empty body', async () => {
    const created = (await create(validApp())).json().data;
    const res = await t.api({
      method: 'PUT',
      url: `/api/apps/${created.id}`,
      payload: { id: 3, unknown: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ field: 'body', code: 'EMPTY_BODY' }),
    ]);
  });

  it('answers 404 for unknown ids and 400 for invalid ones', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const missing = await t.api({
        method,
        url: '/api/apps/424242',
        ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('NOT_FOUND');
      for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
        const res = await t.api({
          method,
          url: `/api/apps/${bad}`,
          ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details[0]).toMatchObject({ field: 'id', code: 'INVALID_ID' });
      }
    }
    const huge = await t.api({ method: 'GET', url: '/api/apps/9999999999' });
    expect(huge.statusCode).toBe(404);
  });

  it('deletes an app with its runs and details, recomputing the summaries', async () => {
    const a = (await create(validApp())).json().data;
    const b = (await create(validApp({ code: 'b', name: 'B' }))).json().data;
    const now = new Date().toISOString();
    const { db } = t.database;
    const summary = await db
      .insertInto('e2e_report_summaries')
      .values({
        date: '2025-01-10',
        status: 'ready',
        total_runs: 10,
        passed_runs: 6,
        failed_runs: 4,
        success_rate: 0.6,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const detail = (appId: number, total: number, passed: number) => ({
      report_summary_id: summary.id,
      app_id: appId,
      total_runs: total,
      passed_runs: passed,
      failed_runs: total - passed,
      flaky_runs: 0,
      success_rate: passed / total,
      last_run_status: 'passed',
      last_run_at: now,
      created_at: now,
    });
    await db
      .insertInto('e2e_report_details')
      .values([detail(a.id, 4, 1), detail(b.id, 6, 5)])
      .execute();
    await db
      .insertInto('e2e_manual_runs')
      .values({
        app_id: a.id,
        pipeline_id: 'p-1',
        status: 'success',
        url: 'https://x',
        created_at: now,
        updated_at: now,
      })
      .execute();

    const res = await t.api({ method: 'DELETE', url: `/api/apps/${a.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: expect.any(String) });
    expect((await t.api({ method: 'GET', url: `/api/apps/${a.id}` })).statusCode).toBe(404);
    const after = await db.selectFrom('e2e_report_summaries').selectAll().executeTakeFirstOrThrow();
    expect(after).toMatchObject({ total_runs: 6, passed_runs: 5, failed_runs: 1, success_rate: 0.8333 });
    const runs = await db
      .selectFrom('e2e_manual_runs')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(runs.n)).toBe(0);
    const details = await db.selectFrom('e2e_report_details').select('app_id').execute();
    expect(details.map((d) => d.app_id)).toEqual([b.id]);
  });

  it('shows the last manual run and today’s run count from the database', async () => {
    const app = (await create(validApp())).json().data;
    const other = (await create(validApp({ code: 'o' }))).json().data;
    const today = new Date();
    const yesterday = new Date(today.getTime() - 86_400_000).toISOString();
    const earlier = new Date(
      Date.parse(`${today.toISOString().slice(0, 10)}T00:00:00.000Z`) + 1000,
    ).toISOString();
    const run = (pipelineId: string, createdAt: string, status: string) => ({
      app_id: app.id,
      pipeline_id: pipelineId,
      status,
      url: `https://app.circleci.com/pipelines/${pipelineId}`,
      created_at: createdAt,
      updated_at: createdAt,
    });
    await t.database.db
      .insertInto('e2e_manual_runs')
      .values([
        run('old', yesterday, 'failed'),
        run('first', earlier, 'success'),
        run('latest', earlier, 'running'),
      ])
      .execute();
    const list = (await t.api({ method: 'GET', url: '/api/apps' })).json().data;
    const mine = list.find((a: { id: number }) => a.id === app.id);
    expect(mine.e2eRunsQuantity).toBe(2);
    expect(mine.lastRun).toMatchObject({ pipelineId: 'latest', status: 'running', createdAt: earlier });
    expect(Object.keys(mine.lastRun).sort()).toEqual(['createdAt', 'id', 'pipelineId', 'status', 'url']);
    expect(list.find((a: { id: number }) => a.id === other.id)).toMatchObject({
      lastRun: null,
      e2eRunsQuantity: 0,
    });
    const single = (await t.api({ method: 'GET', url: `/api/apps/${app.id}` })).json().data;
    expect(single).toMatchObject({ e2eRunsQuantity: 2, lastRun: { pipelineId: 'latest' } });
  });

  it('stores SQL-looking and Unicode strings literally', async () => {
    const name = "Robert'); DROP TABLE apps;-- 🚀 Ünïcödé 日本語";
    const code = "x' OR '1'='1";
    const res = await create(validApp({ name, code }));
    expect(res.statusCode).toBe(201);
    const read = (await t.api({ method: 'GET', url: `/api/apps/${res.json().data.id}` })).json().data;
    expect(read).toMatchObject({ name, code });
    expect((await t.api({ method: 'GET', url: '/api/apps' })).json().data).toHaveLength(1);
  });

  it('paginates the list', async () => {
    for (let i = 0; i < 5; i++) await create(validApp({ code: `c${i}`, name: `App ${i}` }));
    const all = await t.api({ method: 'GET', url: '/api/apps' });
    expect(all.json().data).toHaveLength(5);
    expect(all.json().pagination).toBeUndefined();
    const page = await t.api({ method: 'GET', url: '/api/apps?limit=2&offset=3' });
    expect(page.json().data.map((a: { code: string }) => a.code)).toEqual(['c3', 'c4']);
    expect(page.json().pagination).toEqual({ total: 5, limit: 2, offset: 3, hasMore: false });
    const first = await t.api({ method: 'GET', url: '/api/apps?limit=2' });
    expect(first.json().pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
  });
});
