import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '../../../support/databases.js';
import { appsSuite, validApp } from './apps-api.js';

describe.each(DIALECTS)('applications API records (%s)', (dialect) => {
  const { t, create } = appsSuite(dialect);

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
