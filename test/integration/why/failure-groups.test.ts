import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportHarness, specRow, startReportHarness } from '../../support/report-harness.js';
import { DIALECTS } from '../../support/databases.js';
import { type Api, createApp, upload, XML } from '../uploads/upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const DATE = '2026-04-10';
const COMMIT = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

const failure = (name: string, message: string) =>
  `<testcase name="${name}"><failure message="${message}">${message}&#10;    at Context.eval (pay.spec.ts:12:7)</failure></testcase>`;
const suite = (file: string, cases: string) =>
  `<testsuite name="${file}" file="${file}">${cases}</testsuite>`;

describe.each(DIALECTS)('failures grouped by cause over uploaded runs (%s)', (dialect) => {
  let h: ReportHarness;
  let web: { id: number; code: string };
  let cypressApp: { id: number };
  let summaryId: number;
  let firstUpload: number;
  const api: Api = (options) => h.api(options);
  const get = (url: string) => h.api({ method: 'GET', url });

  beforeAll(async () => {
    // The report is asked for below: no regeneration by the uploads themselves meanwhile.
    h = await startReportHarness({ dialect, env: { REPORT_REFRESH_DELAY_MS: '3600000' } });
    web = await createApp(api, 'web');
    cypressApp = await createApp(api, 'api');
    const send = (body: string, run: number, createdAt: string, extra: Record<string, string> = {}) =>
      upload(api, `<testsuites>${body}</testsuites>`, {
        contentType: XML,
        query: { app: web.code, run, createdAt, ...extra },
      });
    const uploads = [
      await send(
        suite(
          'pay.spec.ts',
          failure('pays', 'Timed out retrying after 4000ms: Expected to find element: `#pay-17`'),
        ),
        1,
        '2026-04-08T10:00:00.000Z',
      ),
      await send(
        suite(
          'pay.spec.ts',
          failure('pays', 'Timed out retrying after 5000ms: Expected to find element: `#pay-99`'),
        ) +
          suite(
            'cart.spec.ts',
            failure('adds', 'Timed out retrying after 4000ms: Expected to find element: `#cart`'),
          ) +
          suite('login.spec.ts', failure('logs in', 'expected 401 to equal 200')),
        2,
        '2026-04-09T10:00:00.000Z',
        { commit: COMMIT, runUrl: 'https://ci.example.com/runs/2' },
      ),
      // Outside the report's window: not grouped.
      await send(suite('old.spec.ts', failure('old', 'Ancient failure')), 3, '2026-01-01T10:00:00.000Z'),
    ];
    for (const response of uploads) expect(response.statusCode, response.body).toBe(201);
    firstUpload = uploads[0]!.json<Json>().data.id as number;
    h.fake.rows = [specRow('api', 1, { created_at: '2026-04-09T10:00:00.000Z', status: 'failed' })];
    await get(`/api/e2e_run_report?date=${DATE}`);
    summaryId = (await h.waitForReport(DATE)).json<Json>().summary.id as number;
  });
  afterAll(async () => h.close());

  it('groups the failed tests of the window by the normalised first line, most tests first', async () => {
    const response = await get(`/api/e2e_run_report/${summaryId}/${web.id}/failure_groups`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: [
        {
          signature: 'Timed out retrying after <n>ms: Expected to find element: <str>',
          message: 'Timed out retrying after 5000ms: Expected to find element: `#pay-99`',
          specs: ['cart.spec.ts', 'pay.spec.ts'],
          // pay.spec.ts's "pays" failed in both runs: one test, two failures.
          tests: 2,
          occurrences: 3,
          lastSeenAt: '2026-04-09T10:00:00.000Z',
        },
        {
          signature: 'expected <n> to equal <n>',
          message: 'expected 401 to equal 200',
          specs: ['login.spec.ts'],
          tests: 1,
          occurrences: 1,
          lastSeenAt: '2026-04-09T10:00:00.000Z',
        },
      ],
    });
  });

  it('gives each uploaded spec its last error, run link and commit', async () => {
    const specs = (await get(`/api/e2e_run_report/${summaryId}/${web.id}/specs`)).json<Json>().data as Json[];
    expect(specs.find((spec) => spec.spec === 'pay.spec.ts')).toMatchObject({
      lastError: { message: 'Timed out retrying after 5000ms: Expected to find element: `#pay-99`' },
      lastFailedRunNumber: 2,
      lastFailedRunUrl: 'https://ci.example.com/runs/2',
      firstFailedCommitSha: null,
      history: [
        { runNumber: 1, status: 'failed' },
        { runNumber: 2, status: 'failed' },
      ],
    });
    expect(specs.find((spec) => spec.spec === 'login.spec.ts')).toMatchObject({
      lastError: { message: 'expected 401 to equal 200' },
      firstFailedCommitSha: COMMIT,
      lastPassedCommitSha: null,
    });
  });

  it('reads the uploads as they are now: a deleted upload leaves its group at once', async () => {
    expect((await h.api({ method: 'DELETE', url: `/api/test_results/${firstUpload}` })).statusCode).toBe(204);
    const groups = (await get(`/api/e2e_run_report/${summaryId}/${web.id}/failure_groups`)).json<Json>()
      .data as Json[];
    expect(groups.map((group) => [group.tests, group.occurrences, group.specs])).toEqual([
      [2, 2, ['cart.spec.ts', 'pay.spec.ts']],
      [1, 1, ['login.spec.ts']],
    ]);
  });

  it('answers an empty list for an app without error text, and 404 as the specs endpoint', async () => {
    const empty = await get(`/api/e2e_run_report/${summaryId}/${cypressApp.id}/failure_groups`);
    expect(empty.json()).toEqual({ success: true, data: [] });
    expect((await get(`/api/e2e_run_report/999999/${web.id}/failure_groups`)).statusCode).toBe(404);
    expect((await get(`/api/e2e_run_report/${summaryId}/999999/failure_groups`)).statusCode).toBe(404);
    expect((await get(`/api/e2e_run_report/abc/${web.id}/failure_groups`)).statusCode).toBe(400);
  });
});
