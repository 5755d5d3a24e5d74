import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, specRow } from '../../support/report-harness.js';
import { insightSuite, type Json } from './insight-support.js';

describe.each(DIALECTS)('report insight endpoints: spec statistics (%s)', (dialect) => {
  const { suite, get, report } = insightSuite(dialect);
  let h: ReportHarness;
  let shop: number;
  let silent: number;
  beforeAll(() => {
    ({ h, shop, silent } = suite);
  });

  it('serves per-spec statistics in order, paginated, with streaks, durations and authors', async () => {
    const date = '2025-04-15';
    h.fake.rows = [
      specRow('shop', 1, { spec: 'cart.cy.ts', created_at: '2025-04-10T08:00:00.000Z', spec_duration: 1000 }),
      specRow('shop', 2, {
        spec: 'cart.cy.ts',
        status: 'failed',
        created_at: '2025-04-11T08:00:00.000Z',
        commit_author_name: 'Grace',
        spec_duration: 2000,
      }),
      specRow('shop', 2, { spec: 'cart.cy.ts', created_at: '2025-04-11T07:00:00.000Z', spec_duration: null }),
      specRow('shop', 3, {
        spec: 'cart.cy.ts',
        status: 'failed',
        created_at: '2025-04-15T09:00:00.000Z',
        commit_author_name: 'Linus',
        spec_duration: 4001,
      }),
      specRow('shop', 1, { spec: 'search.cy.ts', flaky_tests: 1, created_at: '2025-04-10T08:00:00.000Z' }),
      specRow('shop', 3, { spec: 'search.cy.ts', created_at: '2025-04-15T09:00:00.000Z' }),
      specRow('shop', 3, { spec: 'about.cy.ts', created_at: '2025-04-15T09:00:00.000Z' }),
      specRow('shop', 3, { spec: 'empty.cy.ts', status: 'noTests', created_at: '2025-04-15T09:00:00.000Z' }),
      specRow('shop', null, { spec: 'ghost.cy.ts', status: 'failed' }),
      specRow('admin', 5, { spec: 'users.cy.ts', created_at: '2025-04-14T09:00:00.000Z' }),
    ];
    await get(`/api/e2e_run_report?date=${date}`);
    const body = await report(date);
    const summaryId = body.summary.id as number;

    const all = await get(`/api/e2e_run_report/${summaryId}/${shop}/specs`);
    expect(all.statusCode).toBe(200);
    const specs = all.json<Json>().data as Json[];
    expect(specs.map((spec) => spec.spec)).toEqual([
      'cart.cy.ts',
      'search.cy.ts',
      'about.cy.ts',
      'empty.cy.ts',
    ]);
    expect(specs[0]).toEqual({
      spec: 'cart.cy.ts',
      totalRuns: 3,
      failedRuns: 2,
      flakyRuns: 0,
      successRate: 0.3333,
      lastStatus: 'failed',
      lastRunAt: '2025-04-15T09:00:00.000Z',
      lastFailedAt: '2025-04-15T09:00:00.000Z',
      failingSince: '2025-04-11T07:00:00.000Z',
      avgDurationMs: 2334,
      lastFailureAuthor: 'Linus',
      quarantine: null,
      history: expect.any(Array),
      lastRunUrl: null,
      lastFailedRunNumber: 3,
      lastFailedRunUrl: null,
      firstFailedCommitSha: null,
      lastPassedCommitSha: null,
      lastError: null,
      // The Cypress export has no test level.
      tests: null,
    });
    expect(specs[1]).toMatchObject({
      spec: 'search.cy.ts',
      flakyRuns: 1,
      lastStatus: 'passed',
      failingSince: null,
    });
    expect(specs[3]).toMatchObject({
      spec: 'empty.cy.ts',
      totalRuns: 0,
      successRate: 0,
      lastStatus: 'passed',
    });
    expect(all.json<Json>().pagination).toBeUndefined();

    const page = await get(`/api/e2e_run_report/${summaryId}/${shop}/specs?limit=2&offset=1`);
    expect(page.json<Json>()).toMatchObject({
      success: true,
      pagination: { total: 4, limit: 2, offset: 1, hasMore: true },
    });
    expect((page.json<Json>().data as Json[]).map((spec) => spec.spec)).toEqual([
      'search.cy.ts',
      'about.cy.ts',
    ]);

    // A watched app without runs has no detail: an empty list, not an error.
    expect((await get(`/api/e2e_run_report/${summaryId}/${silent}/specs`)).json<Json>().data).toEqual([]);
  });

  it('answers 400 for bad ids or paging, 404 for an unknown summary or app, 401 without a key', async () => {
    const date = '2025-04-20';
    h.fake.rows = [specRow('shop', 1, { created_at: '2025-04-19T08:00:00.000Z' })];
    await get(`/api/e2e_run_report?date=${date}`);
    const summaryId = (await report(date)).summary.id as number;
    for (const url of [
      `/api/e2e_run_report/abc/${shop}/specs`,
      `/api/e2e_run_report/${summaryId}/0/specs`,
      `/api/e2e_run_report/${summaryId}/${shop}/specs?limit=0`,
      `/api/e2e_run_report/${summaryId}/${shop}/specs?offset=-1`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json<Json>().success).toBe(false);
    }
    for (const url of [
      `/api/e2e_run_report/999999/${shop}/specs`,
      `/api/e2e_run_report/${summaryId}/999999/specs`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json<Json>()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    const anonymous = await h.app.inject({
      method: 'GET',
      url: `/api/e2e_run_report/${summaryId}/${shop}/specs`,
    });
    expect(anonymous.statusCode).toBe(401);
    const changes = await h.app.inject({ method: 'GET', url: `/api/e2e_reports/${date}/changes` });
    expect(changes.statusCode).toBe(401);
  });

  it('serves reports stored before spec statistics existed: no specs, zero day figures', async () => {
    const now = new Date().toISOString();
    const summary = await h.database.db
      .insertInto('e2e_report_summaries')
      .values({
        date: '2024-12-01',
        status: 'ready',
        total_runs: 1,
        passed_runs: 1,
        failed_runs: 0,
        success_rate: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.database.db
      .insertInto('e2e_report_details')
      .values({
        report_summary_id: summary.id,
        app_id: shop,
        total_runs: 1,
        passed_runs: 1,
        failed_runs: 0,
        flaky_runs: 0,
        success_rate: 1,
        last_run_status: 'passed',
        last_run_number: 1,
        last_run_at: '2024-12-01T08:00:00.000Z',
        last_failed_run_at: null,
        created_at: now,
      })
      .execute();
    const specs = await get(`/api/e2e_run_report/${summary.id}/${shop}/specs`);
    expect(specs.json<Json>()).toEqual({ success: true, data: [] });
    const body = (await get('/api/e2e_reports/2024-12-01/details')).json<Json>().data;
    expect(body.summary).toMatchObject({
      day: { totalRuns: 0, passedRuns: 0, failedRuns: 0 },
      appsWithoutRuns: [],
    });
    expect(body.details[0].day).toEqual({ totalRuns: 0, passedRuns: 0, failedRuns: 0 });
  });

  it('removes spec rows with their details when a report is regenerated', async () => {
    const date = '2025-09-10';
    h.fake.rows = [
      specRow('shop', 1, { spec: 'one.cy.ts', created_at: '2025-09-09T08:00:00.000Z' }),
      specRow('shop', 1, { spec: 'two.cy.ts', created_at: '2025-09-09T08:00:00.000Z' }),
    ];
    await get(`/api/e2e_run_report?date=${date}`);
    const summaryId = (await report(date)).summary.id as number;
    h.fake.rows = [specRow('shop', 2, { spec: 'three.cy.ts', created_at: '2025-09-10T08:00:00.000Z' })];
    await get(`/api/e2e_run_report?date=${date}&force=true`);
    await eventually(
      () => get(`/api/e2e_run_report/${summaryId}/${shop}/specs`),
      (response) => response.statusCode === 200 && response.json<Json>().data[0]?.spec === 'three.cy.ts',
    );
    const stored = await h.database.db
      .selectFrom('e2e_report_specs as s')
      .innerJoin('e2e_report_details as d', 'd.id', 's.report_detail_id')
      .select('s.spec')
      .where('d.report_summary_id', '=', summaryId)
      .execute();
    expect(stored.map((row) => row.spec)).toEqual(['three.cy.ts']);
  });
});
