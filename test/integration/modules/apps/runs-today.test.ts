import { describe, expect, it } from 'vitest';
import { createApp, upload, XML } from '../../uploads/upload-support.js';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';
import type { TestApp } from '../../../support/test-app.js';
import { addDays } from '../../../../src/shared/time.js';
import { zonedDay } from '../../../../src/shared/zoned-day.js';

// Five and a half hours ahead of UTC: "today" there starts at 18:30 UTC the day before.
const ZONE = 'Asia/Kolkata';
const TABLES = [
  'test_result_failures',
  'test_result_specs',
  'test_result_uploads',
  'e2e_report_specs',
  'e2e_report_details',
  'e2e_report_summaries',
  'e2e_manual_runs',
  'apps',
] as const;

const shard = (name: string) =>
  `<testsuites><testsuite name="${name}" file="${name}.spec.ts"><testcase name="works"/></testsuite></testsuites>`;
const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

interface RunsToday {
  date: string;
  timezone: string;
  apps: { appId: number; source: string | null; ciRuns: number | null; manualRuns: number }[];
}

async function runsToday(t: TestApp): Promise<RunsToday> {
  const res = await t.api({ method: 'GET', url: '/api/apps/runs_today' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ success: true; data: RunsToday }>().data;
}

async function send(t: TestApp, code: string, run: number, createdAt: string, file = 'checkout') {
  const res = await upload((o) => t.api(o), shard(file), {
    contentType: XML,
    query: { app: code, run, createdAt },
  });
  expect([200, 201], res.body).toContain(res.statusCode);
}

async function manualRun(t: TestApp, appId: number, createdAt: string) {
  await t.database.db
    .insertInto('e2e_manual_runs')
    .values({
      app_id: appId,
      pipeline_id: `p-${createdAt}`,
      status: 'success',
      url: 'https://app.circleci.com/pipelines/x',
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
}

/** A ready report of `date` whose detail of `appId` counts `dayRuns` runs on the day. */
async function readyReport(t: TestApp, date: string, appId: number, dayRuns: number) {
  const now = new Date().toISOString();
  const summary = await t.database.db
    .insertInto('e2e_report_summaries')
    .values({
      date,
      status: 'ready',
      total_runs: dayRuns,
      passed_runs: dayRuns,
      failed_runs: 0,
      success_rate: 1,
      day_total_runs: dayRuns,
      day_passed_runs: dayRuns,
      day_failed_runs: 0,
      apps_without_runs: '[]',
      created_at: now,
      updated_at: now,
      ready_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('e2e_report_details')
    .values({
      report_summary_id: summary.id,
      app_id: appId,
      total_runs: dayRuns,
      passed_runs: dayRuns,
      failed_runs: 0,
      flaky_runs: 0,
      success_rate: 1,
      last_run_status: 'passed',
      last_run_number: 7,
      last_run_at: now,
      last_failed_run_at: null,
      day_total_runs: dayRuns,
      day_passed_runs: dayRuns,
      day_failed_runs: 0,
      last_failure_author: null,
      created_at: now,
    })
    .execute();
}

describe.each(DIALECTS)('GET /api/apps/runs_today (%s)', (dialect) => {
  const t = suiteTestApp({ dialect, env: { CRON_TZ: ZONE, CYPRESS_API_KEY: 'cypress-key' } }, TABLES);

  it('counts the distinct runs an upload-fed app ran today in CRON_TZ, and its manual runs apart', async () => {
    const shop = await createApp((o) => t.api(o), 'shop');
    const day = zonedDay(ZONE);
    // Run 10 in two shards and run 11 today; run 9 one minute before today began there.
    await send(t, shop.code, 9, shifted(day.startIso, -60_000));
    await send(t, shop.code, 10, shifted(day.startIso, 1000), 'checkout');
    await send(t, shop.code, 10, shifted(day.startIso, 2000), 'search');
    await send(t, shop.code, 11, shifted(day.startIso, 3000));
    await manualRun(t, shop.id, shifted(day.startIso, -1));
    await manualRun(t, shop.id, day.startIso);

    const body = await runsToday(t);
    expect(body).toEqual({
      date: day.date,
      timezone: ZONE,
      apps: [{ appId: shop.id, source: 'uploads', ciRuns: 2, manualRuns: 1 }],
    });
  });

  it('keeps an app that uploaded in the report window on uploads with 0 runs on a quiet day', async () => {
    const shop = await createApp((o) => t.api(o), 'shop');
    const old = await createApp((o) => t.api(o), 'old');
    const day = zonedDay(ZONE);
    await send(t, shop.code, 3, `${addDays(day.date, -3)}T12:00:00.000Z`);
    // Thirty days ago is outside the window: that app is read from the Cypress export again.
    await send(t, old.code, 1, `${addDays(day.date, -30)}T12:00:00.000Z`);

    const { apps } = await runsToday(t);
    expect(apps).toEqual([
      { appId: shop.id, source: 'uploads', ciRuns: 0, manualRuns: 0 },
      { appId: old.id, source: 'cypress', ciRuns: null, manualRuns: 0 },
    ]);
  });

  it("counts a Cypress-fed app's runs from today's ready report, unknown before it is ready", async () => {
    const web = await createApp((o) => t.api(o), 'web');
    const other = await createApp((o) => t.api(o), 'other');
    expect((await runsToday(t)).apps).toEqual([
      { appId: web.id, source: 'cypress', ciRuns: null, manualRuns: 0 },
      { appId: other.id, source: 'cypress', ciRuns: null, manualRuns: 0 },
    ]);

    // The report written after the first answer: the cached answer is dropped, not served.
    await readyReport(t, zonedDay(ZONE).date, web.id, 4);
    expect((await runsToday(t)).apps).toEqual([
      { appId: web.id, source: 'cypress', ciRuns: 4, manualRuns: 0 },
      { appId: other.id, source: 'cypress', ciRuns: 0, manualRuns: 0 },
    ]);
  });

  it('answers 304 to a poll that holds the current answer', async () => {
    await createApp((o) => t.api(o), 'shop');
    const first = await t.api({ method: 'GET', url: '/api/apps/runs_today' });
    const again = await t.api({
      method: 'GET',
      url: '/api/apps/runs_today',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('needs the key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/apps/runs_today' });
    expect(res.statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('GET /api/apps/runs_today without a Cypress key (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, TABLES);

  it('names no source for an app that never uploaded, and uploads for one that did', async () => {
    const bare = await createApp((o) => t.api(o), 'bare');
    const shop = await createApp((o) => t.api(o), 'shop');
    await send(t, shop.code, 1, new Date().toISOString());
    const { date, timezone, apps } = await runsToday(t);
    expect({ date, timezone }).toEqual({ date: zonedDay('UTC').date, timezone: 'UTC' });
    expect(apps).toEqual([
      { appId: bare.id, source: null, ciRuns: null, manualRuns: 0 },
      { appId: shop.id, source: 'uploads', ciRuns: 1, manualRuns: 0 },
    ]);
  });
});
