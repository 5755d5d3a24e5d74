import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, specRow, startReportHarness } from '../../support/report-harness.js';
import { type Api, createApp, fixture, JSON_TYPE, upload, XML } from './upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const PASSING_WITH_RETRY =
  '<testsuites><testsuite name="smoke" file="smoke.spec.ts">' +
  '<testcase name="loads"/><testcase name="retried"><flakyFailure message="first try">x</flakyFailure></testcase>' +
  '</testsuite></testsuites>';

describe.each(DIALECTS)('reports over uploaded runs (%s)', (dialect) => {
  let h: ReportHarness;
  let web: { id: number; name: string; code: string };
  let cypressApp: { id: number; name: string; code: string };
  let idle: { id: number; name: string; code: string };
  const api: Api = (options) => h.api(options);

  beforeAll(async () => {
    // Reports are asked for by hand here: uploads do not regenerate them meanwhile.
    h = await startReportHarness({ dialect, env: { REPORT_REFRESH_DELAY_MS: '3600000' } });
    web = await createApp(api, 'web');
    cypressApp = await createApp(api, 'api');
    idle = await createApp(api, 'idle');
  });
  afterAll(async () => h.close());

  const send = (body: Buffer | string, contentType: string, query: Record<string, string | number>) =>
    upload(api, body, { contentType, query: { app: web.code, ...query } });

  it('reports uploaded runs of every format beside a Cypress-fed app, and forgets a deleted upload', async () => {
    const date = '2026-03-10';
    const uploads: [string, string, number, string][] = [
      ['mocha-junit.xml', XML, 1, '2026-03-04T10:00:00.000Z'],
      ['jest-junit.xml', XML, 2, '2026-03-05T10:00:00.000Z'],
      ['playwright-junit.xml', XML, 3, '2026-03-06T10:00:00.000Z'],
      ['pytest-junit.xml', XML, 4, '2026-03-07T10:00:00.000Z'],
      ['mochawesome.json', JSON_TYPE, 5, '2026-03-08T10:00:00.000Z'],
      ['playwright.json', JSON_TYPE, 6, '2026-03-10T08:00:00.000Z'],
    ];
    for (const [file, type, run, createdAt] of uploads) {
      const response = await send(fixture(file), type, { run, createdAt, author: `author ${run}` });
      expect(response.statusCode, response.body).toBe(201);
    }
    // Run 7 comes in two shards, both passing; one test passed on a retry.
    const shardA = await send(PASSING_WITH_RETRY, XML, {
      run: 7,
      createdAt: '2026-03-10T09:00:00.000Z',
      author: 'Grace',
    });
    const shardB = await send(
      '<testsuite name="about" file="about.spec.ts"><testcase name="renders"/></testsuite>',
      XML,
      { run: 7, createdAt: '2026-03-10T09:05:00.000Z', author: 'Grace' },
    );
    expect([shardA.statusCode, shardB.statusCode]).toEqual([201, 201]);
    // Outside the window: not counted.
    await send(fixture('jest-junit.xml'), XML, { run: 1000, createdAt: '2026-01-01T00:00:00.000Z' });
    h.fake.rows = [
      specRow('api', 31, { created_at: '2026-03-09T10:00:00.000Z' }),
      specRow('api', 32, {
        created_at: '2026-03-10T10:00:00.000Z',
        status: 'failed',
        commit_author_name: 'Linus',
      }),
      // The export also knows "web": not asked for, so never counted twice.
      specRow('web', 99, { created_at: '2026-03-10T10:00:00.000Z', status: 'failed' }),
    ];
    h.fake.requests.length = 0;

    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${date}` });
    const body = (await h.waitForReport(date)).json<Json>();
    const detailOf = (appId: number) => (body.details as Json[]).find((detail) => detail.appId === appId);
    expect(detailOf(web.id)).toMatchObject({
      totalRuns: 7,
      passedRuns: 1,
      failedRuns: 6,
      flakyRuns: 2,
      lastRunStatus: 'passed',
      lastRunNumber: 7,
      day: { totalRuns: 2, passedRuns: 1, failedRuns: 1 },
    });
    expect(detailOf(cypressApp.id)).toMatchObject({
      totalRuns: 2,
      failedRuns: 1,
      lastRunNumber: 32,
    });
    expect((body.summary.appsWithoutRuns as Json[]).map((app) => app.id)).toEqual([idle.id]);
    expect(h.fake.requests.map((request) => request.projects.sort())).toEqual([['api', 'idle']]);

    const specs = (
      await h.api({ method: 'GET', url: `/api/e2e_run_report/${body.summary.id}/${web.id}/specs?limit=100` })
    ).json<Json>().data as Json[];
    const checkout = specs.find((spec) => spec.spec === 'checkout.spec.js')!;
    expect(checkout).toMatchObject({
      totalRuns: 2,
      failedRuns: 2,
      flakyRuns: 1,
      lastFailureAuthor: 'author 6',
    });
    expect(specs.find((spec) => spec.spec === 'smoke.spec.ts')).toMatchObject({
      totalRuns: 1,
      flakyRuns: 1,
      lastStatus: 'passed',
    });

    // Removing run 7's shards makes run 6 (failed) the last run.
    for (const shard of [shardA, shardB]) {
      const id = shard.json<Json>().data.id as number;
      expect((await h.api({ method: 'DELETE', url: `/api/test_results/${id}` })).statusCode).toBe(204);
    }
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${date}&force=true` });
    const again = await eventually(
      async () => (await h.waitForReport(date)).json<Json>(),
      (report) =>
        (report.details as Json[]).some((detail) => detail.appId === web.id && detail.totalRuns === 6),
    );
    expect((again.details as Json[]).find((detail) => detail.appId === web.id)).toMatchObject({
      lastRunNumber: 6,
      lastRunStatus: 'failed',
    });
  });

  it('does not ask the export at all when every watched app is fed by uploads', async () => {
    const date = '2026-03-20';
    await h.api({ method: 'PUT', url: `/api/apps/${cypressApp.id}`, payload: { watching: false } });
    await h.api({ method: 'PUT', url: `/api/apps/${idle.id}`, payload: { watching: false } });
    await send(fixture('mocha-junit.xml'), XML, { run: 50, createdAt: '2026-03-19T10:00:00.000Z' });
    h.fake.requests.length = 0;
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${date}` });
    const body = (await h.waitForReport(date)).json<Json>();
    expect(body.details).toEqual([
      expect.objectContaining({ appId: web.id, lastRunNumber: 50, lastRunStatus: 'failed' }),
    ]);
    expect(h.fake.requests).toEqual([]);
    const notifications = (await h.api({ method: 'GET', url: '/api/notifications?limit=100' })).json<Json>()
      .data as Json[];
    expect(notifications.some((notification) => JSON.stringify(notification).includes('web'))).toBe(true);
  });
});
