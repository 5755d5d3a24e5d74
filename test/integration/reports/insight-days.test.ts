import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, specRow } from '../../support/report-harness.js';
import { insightSuite, type Json } from './insight-support.js';

describe.each(DIALECTS)('report insight endpoints: days, changes and notifications (%s)', (dialect) => {
  const { suite, get, report, notifications } = insightSuite(dialect);
  let h: ReportHarness;
  let shop: number;
  let admin: number;
  let silent: number;
  beforeAll(() => {
    ({ h, shop, admin, silent } = suite);
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
});
