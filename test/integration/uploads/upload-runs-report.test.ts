import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, startReportHarness } from '../../support/report-harness.js';
import { type Api, createApp, fixture, JSON_TYPE, upload, XML } from './upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const DATE = '2026-06-10';
const at = (time: string) => `${DATE}T${time}.000Z`;

/**
 * What reports make of re-runs, crashed runs and authors, from the files the real reporters
 * wrote. Reports are asked for explicitly here (uploads' own regeneration waits an hour).
 */
describe.each(DIALECTS)('re-runs, crashes and authors in reports (%s)', (dialect) => {
  let h: ReportHarness;
  const api: Api = (options) => h.api(options);

  beforeAll(async () => {
    h = await startReportHarness({ dialect, env: { REPORT_REFRESH_DELAY_MS: '3600000' } });
  });
  afterAll(async () => h.close());

  const send = (code: string, file: string, query: Record<string, string | number>) =>
    upload(api, fixture(file), {
      contentType: file.endsWith('.json') ? JSON_TYPE : XML,
      query: { app: code, ...query },
    });

  /** The app's e2e_failure alert, once the report that raises it has stored it (after the report is ready). */
  const failureAlertOf = (appId: number) =>
    eventually(
      async () =>
        (
          (await api({ method: 'GET', url: '/api/notifications?limit=100' })).json<Json>().data as Json[]
        ).find((item) => item.type === 'e2e_failure' && item.data?.appId === appId),
      (alert) => alert !== undefined,
    );

  /** Regenerates the date and answers the app's detail and specs. */
  async function reportOf(appId: number) {
    await api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}&force=true` });
    const body = (await h.waitForReport(DATE)).json<Json>();
    const detail = (body.details as Json[]).find((item) => item.appId === appId);
    const specs = (
      await api({ method: 'GET', url: `/api/e2e_run_report/${body.summary.id}/${appId}/specs?limit=100` })
    ).json<Json>().data as Json[];
    return { detail, specs, spec: (name: string) => specs.find((item) => item.spec === name) };
  }

  it('takes each spec from the highest attempt of a run: a GitHub re-run that passed makes the run flaky', async () => {
    const app = await createApp(api, 'rerun');
    const shard1 = await send(app.code, 'rerun-shard1-attempt1.json', {
      run: 107,
      createdAt: at('10:00:00'),
    });
    const shard2 = await send(app.code, 'rerun-shard2-attempt1.json', {
      run: 107,
      createdAt: at('10:01:00'),
    });
    expect([shard1.statusCode, shard2.statusCode]).toEqual([201, 201]);
    const before = await reportOf(app.id);
    expect(before.detail).toMatchObject({ totalRuns: 1, failedRuns: 1, lastRunStatus: 'failed' });
    expect(before.spec('api.spec.js')).toMatchObject({ lastStatus: 'failed', failedRuns: 1 });

    const rerun = await send(app.code, 'rerun-shard1-attempt2.json', {
      run: 107,
      attempt: 2,
      createdAt: at('10:20:00'),
    });
    expect(rerun.statusCode).toBe(201);
    expect(rerun.json<Json>().data).toMatchObject({ runNumber: 107, attempt: 2, failed: 0 });
    // The same attempt's file again: stored once.
    const again = await send(app.code, 'rerun-shard1-attempt2.json', { run: 107, attempt: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.json<Json>().data.id).toBe(rerun.json<Json>().data.id);

    const after = await reportOf(app.id);
    expect(after.detail).toMatchObject({
      totalRuns: 1,
      passedRuns: 1,
      failedRuns: 0,
      flakyRuns: 1,
      lastRunStatus: 'passed',
    });
    expect(after.spec('api.spec.js')).toMatchObject({ lastStatus: 'passed', failedRuns: 0, flakyRuns: 1 });
    expect(after.spec('health.spec.js')).toMatchObject({ lastStatus: 'passed', flakyRuns: 0 });
  });

  it('fails a run that crashed, with the first error line, and every spec it left without a result', async () => {
    const app = await createApp(api, 'crash');
    for (const [file, attempt] of [
      ['rerun-shard2-attempt1.json', 1],
      ['rerun-shard1-attempt2.json', 2],
    ] as const) {
      const passing = await send(app.code, file, { run: 1, attempt, createdAt: at('08:00:00') });
      expect(passing.statusCode, passing.body).toBe(201);
    }
    const crashed = await send(app.code, 'playwright-syntax-error.json', {
      run: 2,
      createdAt: at('09:00:00'),
      author: 'Grace Hopper',
    });
    expect(crashed.json<Json>().data).toMatchObject({ status: 'errored', tests: 0 });

    const { detail, spec } = await reportOf(app.id);
    expect(detail).toMatchObject({
      totalRuns: 2,
      failedRuns: 1,
      lastRunNumber: 2,
      lastRunStatus: 'failed',
    });
    const syntaxError = expect.stringMatching(/^SyntaxError: .*checkout\.spec\.js: Unexpected token/);
    expect(spec('checkout.spec.js')).toMatchObject({
      lastStatus: 'failed',
      lastError: { message: syntaxError },
    });
    // The specs of the app that never ran in the crashed run fail in it, with the crash's error.
    for (const name of ['api.spec.js', 'health.spec.js']) {
      expect(spec(name)).toMatchObject({
        lastStatus: 'failed',
        lastFailedRunNumber: 2,
        history: [
          { runNumber: 1, status: 'passed' },
          { runNumber: 2, status: 'failed' },
        ],
        lastError: { message: syntaxError },
      });
    }
    expect(await failureAlertOf(app.id)).toMatchObject({
      data: expect.objectContaining({ failingSpecs: expect.arrayContaining(['checkout.spec.js']) }),
    });
  });

  it('lets a passing re-run replace a crash that named no spec', async () => {
    const app = await createApp(api, 'recovered');
    const crashed = await send(app.code, 'playwright-syntax-error-junit.xml', {
      run: 5,
      createdAt: at('07:00:00'),
    });
    expect(crashed.json<Json>().data).toMatchObject({ status: 'errored' });
    expect((await reportOf(app.id)).detail).toMatchObject({ lastRunNumber: 5, lastRunStatus: 'failed' });
    await send(app.code, 'rerun-shard2-attempt1.json', { run: 5, attempt: 2, createdAt: at('07:30:00') });
    const { detail, specs } = await reportOf(app.id);
    expect(detail).toMatchObject({ lastRunNumber: 5, lastRunStatus: 'passed' });
    expect(specs.map((item) => item.spec)).toEqual(['health.spec.js']);
  });

  it("names the commit's author as the last failure's author, and who triggered the run only without one", async () => {
    const app = await createApp(api, 'authors');
    await send(app.code, 'jest-junit.xml', {
      run: 1,
      createdAt: at('06:00:00'),
      author: 'Ada Lovelace',
      triggeredBy: 'scheduler-bot',
    });
    const checkout = 'suites/jest/checkout.spec.js';
    expect((await reportOf(app.id)).spec(checkout)).toMatchObject({ lastFailureAuthor: 'Ada Lovelace' });
    await send(app.code, 'jest-junit.xml', { run: 2, createdAt: at('06:30:00'), triggeredBy: 'octocat' });
    const { detail, spec } = await reportOf(app.id);
    expect(detail).toMatchObject({ lastRunNumber: 2 });
    expect(spec(checkout)).toMatchObject({ lastFailedRunNumber: 2, lastFailureAuthor: 'octocat' });
    expect((await failureAlertOf(app.id))?.data).toMatchObject({ lastFailureAuthor: 'Ada Lovelace' });
  });
});
