import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, specRow, startReportHarness } from '../../support/report-harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

describe.each(DIALECTS)('report insight endpoints (%s)', (dialect) => {
  let h: ReportHarness;
  let shop: number;
  let admin: number;
  let silent: number;

  beforeAll(async () => {
    h = await startReportHarness({ dialect });
    shop = await h.createApp('shop');
    admin = await h.createApp('admin');
    // Watched, but no Cypress project carries this (misspelled) name.
    silent = await h.createApp('shopp');
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.fake.rows = [];
  });

  const get = (url: string) => h.api({ method: 'GET', url });
  const report = async (date: string) => (await h.waitForReport(date)).json<Json>();
  const notifications = async (type: string) =>
    (await get(`/api/notifications?type=${type}&limit=100`)).json<Json>().data as Json[];

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

  it("adds the day's figures to details and summaries, and lists watched apps without runs", async () => {
    const date = '2025-05-10';
    h.fake.rows = [
      specRow('shop', 1, { created_at: '2025-05-09T23:00:00.000Z' }),
      specRow('shop', 2, { created_at: '2025-05-10T06:00:00.000Z', status: 'failed' }),
      specRow('shop', 3, { created_at: '2025-05-10T07:00:00.000Z' }),
      specRow('shop', 3, { spec: 'b.cy.ts', created_at: '2025-05-10T07:30:00.000Z' }),
      specRow('admin', 8, { created_at: '2025-05-10T05:00:00.000Z' }),
    ];
    await get(`/api/e2e_run_report?date=${date}`);
    const body = await report(date);
    expect(body.summary.day).toEqual({ totalRuns: 3, passedRuns: 2, failedRuns: 1 });
    expect(body.summary.appsWithoutRuns).toEqual([expect.objectContaining({ id: silent, name: 'shopp' })]);
    expect(body.summary.appsWithoutRuns[0].code).toMatch(/^shopp-/);
    const shopDetail = (body.details as Json[]).find((detail) => detail.appId === shop)!;
    expect(shopDetail.day).toEqual({ totalRuns: 2, passedRuns: 1, failedRuns: 1 });

    const single = (await get(`/api/e2e_run_report/${body.summary.id}/${shop}`)).json<Json>().data;
    expect(single.day).toEqual({ totalRuns: 2, passedRuns: 1, failedRuns: 1 });
    const byDate = (await get(`/api/e2e_reports/${date}`)).json<Json>().data;
    expect(byDate).toMatchObject({ day: body.summary.day, appsWithoutRuns: body.summary.appsWithoutRuns });
    const withDetails = (await get(`/api/e2e_reports/${date}/details`)).json<Json>().data;
    expect((withDetails.details as Json[]).map((detail) => detail.day)).toEqual(
      (body.details as Json[]).map((detail) => detail.day),
    );
    const listed = (await get(`/api/e2e_reports?from=${date}&to=${date}`)).json<Json>().data as Json[];
    expect(listed[0]).toMatchObject({ date, day: body.summary.day });
  });

  it('compares a day with the day before: apps and specs that broke or recovered', async () => {
    const day1 = '2025-06-01';
    const day2 = '2025-06-02';
    h.fake.rows = [
      specRow('shop', 1, { spec: 'cart.cy.ts', created_at: '2025-06-01T08:00:00.000Z' }),
      specRow('shop', 1, { spec: 'pay.cy.ts', created_at: '2025-06-01T08:00:00.000Z' }),
      specRow('admin', 4, { spec: 'users.cy.ts', status: 'failed', created_at: '2025-06-01T08:00:00.000Z' }),
    ];
    await get(`/api/e2e_run_report?date=${day1}`);
    await report(day1);
    const first = await get(`/api/e2e_reports/${day1}/changes`);
    expect(first.statusCode).toBe(200);
    expect(first.json<Json>().data).toEqual({
      date: day1,
      previousDate: null,
      newlyFailing: [],
      recovered: [],
      newFailingSpecs: [],
      fixedSpecs: [],
    });

    h.fake.rows.push(
      specRow('shop', 2, { spec: 'cart.cy.ts', status: 'failed', created_at: '2025-06-02T08:00:00.000Z' }),
      specRow('shop', 2, { spec: 'new.cy.ts', status: 'failed', created_at: '2025-06-02T08:10:00.000Z' }),
      specRow('shop', 2, { spec: 'pay.cy.ts', created_at: '2025-06-02T08:00:00.000Z' }),
      specRow('admin', 5, { spec: 'users.cy.ts', created_at: '2025-06-02T08:00:00.000Z' }),
    );
    await get(`/api/e2e_run_report?date=${day2}`);
    await report(day2);
    const second = await get(`/api/e2e_reports/${day2}/changes`);
    expect(second.json<Json>().data).toEqual({
      date: day2,
      previousDate: day1,
      newlyFailing: [{ appId: shop, appName: 'shop', runId: 2 }],
      recovered: [{ appId: admin, appName: 'admin', runId: 5 }],
      newFailingSpecs: [
        {
          appId: shop,
          appName: 'shop',
          spec: 'cart.cy.ts',
          failingSince: '2025-06-02T08:00:00.000Z',
          quarantined: false,
        },
        {
          appId: shop,
          appName: 'shop',
          spec: 'new.cy.ts',
          failingSince: '2025-06-02T08:10:00.000Z',
          quarantined: false,
        },
      ],
      fixedSpecs: [{ appId: admin, appName: 'admin', spec: 'users.cy.ts' }],
    });

    expect((await get('/api/e2e_reports/2025-06-31/changes')).statusCode).toBe(400);
    expect((await get('/api/e2e_reports/not-a-date/changes')).statusCode).toBe(400);
    const missing = await get('/api/e2e_reports/2024-01-01/changes');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<Json>()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('sends no e2e notifications for a backfill of past dates, only for the newest report', async () => {
    // The newest report (failing) exists first; then 14 past days are regenerated.
    const newest = '2025-08-20';
    const rows = [];
    for (let day = 1; day <= 20; day += 1) {
      const created = `2025-08-${String(day).padStart(2, '0')}T08:00:00.000Z`;
      rows.push(specRow('shop', day, { created_at: created, status: day % 2 === 0 ? 'failed' : 'passed' }));
      rows.push(specRow('admin', day, { created_at: created, status: day % 2 === 1 ? 'failed' : 'passed' }));
    }
    h.fake.rows = rows;
    const e2eNotifications = async () => [
      ...(await notifications('e2e_failure')),
      ...(await notifications('e2e_success')),
    ];
    const has = (list: Json[], appId: number, runId: number) =>
      list.some((notification) => notification.data.appId === appId && notification.data.runId === runId);
    await get(`/api/e2e_run_report?date=${newest}`);
    await report(newest);
    // Notifications are stored just after the report turns ready: wait for the newest one's.
    const before = (await eventually(e2eNotifications, (list) => has(list, shop, 20))).length;
    for (let day = 6; day <= 19; day += 1) {
      await get(`/api/e2e_run_report?date=2025-08-${String(day).padStart(2, '0')}`);
    }
    for (let day = 6; day <= 19; day += 1) await report(`2025-08-${String(day).padStart(2, '0')}`);

    // A newer date still speaks: shop failed on the 20th and passes on the 21st. The one worker
    // handles it after the backfill, so once its notification is there every past date is done.
    h.fake.rows.push(specRow('shop', 21, { created_at: '2025-08-21T08:00:00.000Z' }));
    await get('/api/e2e_run_report?date=2025-08-21');
    const after = await eventually(e2eNotifications, (list) => has(list, shop, 21));
    expect(after.length).toBe(before + 1);
  });

  it('still notifies for the newest real day when a report was asked for a future date', async () => {
    const now = new Date().toISOString();
    await h.database.db
      .insertInto('e2e_report_summaries')
      .values({
        date: '2099-01-01',
        status: 'ready',
        total_runs: 0,
        passed_runs: 0,
        failed_runs: 0,
        success_rate: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    h.fake.rows = [specRow('admin', 90, { status: 'failed', created_at: '2025-12-01T08:00:00.000Z' })];
    await get('/api/e2e_run_report?date=2025-12-01');
    await report('2025-12-01');
    await eventually(
      () => notifications('e2e_failure'),
      (list) =>
        list.some((notification) => notification.data.appId === admin && notification.data.runId === 90),
    );
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
