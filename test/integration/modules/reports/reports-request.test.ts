import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { type ReportHarness, specRow } from '../../../support/report-harness.js';
import { type Body, resetFake, startPipeline } from './reports-support.js';

// Asking for the report of a date: pending then ready, its enrichments, forcing it, its details,
// the summary by date, and the requests refused. Several tests read the report of DATE that the
// first one makes, so they stay in this order.

const DATE = '2025-03-15';

describe.each(DIALECTS)('E2E report pipeline (%s)', (dialect) => {
  let h: ReportHarness;
  let web: number;
  let api: number;

  beforeAll(async () => {
    ({ h, web, api } = await startPipeline(dialect));
  });
  afterAll(async () => h.close());
  beforeEach(() => resetFake(h));

  const get = (url: string) => h.api({ method: 'GET', url });

  it('answers 202 pending, then 200 ready with the exact totals and enriched details', async () => {
    h.fake.rows = [
      specRow('web', 1, { created_at: '2025-03-10T10:00:00.000Z' }),
      specRow('web', 1, { spec: 'b', status: 'noTests' }),
      specRow('web', 2, { status: 'failed', created_at: '2025-03-11T10:00:00.000Z', flaky_tests: 1 }),
      specRow('web', 3, { created_at: '2025-03-12T10:00:00.000Z' }),
      specRow('api', 7, { status: 'failed', created_at: '2025-03-14T09:00:00.000Z' }),
      specRow('ignored', 1),
      specRow('web', null, { status: 'failed' }),
    ];
    await h.database.db
      .insertInto('e2e_manual_runs')
      .values([
        {
          app_id: web,
          pipeline_id: 'p-on-day',
          pipeline_number: 1,
          status: 'success',
          url: 'https://ci/1',
          created_at: `${DATE}T08:00:00.000Z`,
          updated_at: `${DATE}T08:00:00.000Z`,
        },
        {
          app_id: web,
          pipeline_id: 'p-other-day',
          pipeline_number: 2,
          status: 'success',
          url: 'https://ci/2',
          created_at: '2025-03-14T08:00:00.000Z',
          updated_at: '2025-03-14T08:00:00.000Z',
        },
      ])
      .execute();

    const first = await get(`/api/e2e_run_report?date=${DATE}`);
    expect(first.statusCode).toBe(202);
    const pending = first.json<Body>();
    expect(pending).toMatchObject({
      success: true,
      summary: { date: DATE, status: 'pending', totalRuns: 0, passedRuns: 0, failedRuns: 0, successRate: 0 },
      details: [],
    });
    expect(typeof pending.message).toBe('string');

    const ready = await h.waitForReport(DATE);
    expect(ready.statusCode).toBe(200);
    const body = ready.json<Body>();
    expect(body.summary).toMatchObject({
      id: pending.summary.id,
      date: DATE,
      status: 'ready',
      totalRuns: 4,
      passedRuns: 2,
      failedRuns: 2,
      successRate: 0.5,
    });
    expect(body.details!.map((detail) => detail.app.name)).toEqual(['api', 'web']);
    const [apiDetail, webDetail] = body.details!;
    expect(apiDetail).toMatchObject({
      appId: api,
      totalRuns: 1,
      passedRuns: 0,
      failedRuns: 1,
      successRate: 0,
      lastRunStatus: 'failed',
      lastRunAt: '2025-03-14T09:00:00.000Z',
      lastFailedRunAt: '2025-03-14T09:00:00.000Z',
    });
    expect(webDetail).toMatchObject({
      appId: web,
      reportSummaryId: body.summary.id,
      totalRuns: 3,
      passedRuns: 2,
      failedRuns: 1,
      flakyRuns: 1,
      successRate: 0.6667,
      lastRunStatus: 'passed',
      lastRunAt: '2025-03-12T10:00:00.000Z',
      lastFailedRunAt: '2025-03-11T10:00:00.000Z',
    });
    expect(webDetail!.app).toMatchObject({
      id: web,
      name: 'web',
      watching: true,
      lastRun: expect.any(Object),
    });
    expect(webDetail!.app.manualRuns).toEqual([
      { id: expect.any(Number), appId: web, pipelineId: 'p-on-day', createdAt: `${DATE}T08:00:00.000Z` },
    ]);
    // The request carried the spec's parameters, the watched apps only.
    const request = h.fake.requests.at(-1)!;
    expect(request.query.get('start_date')).toBe('2025-03-01');
    expect(request.query.get('end_date')).toBe(DATE);
    expect(request.projects.sort()).toEqual(['api', 'web']);
  });

  it('applies the enrichments flags', async () => {
    const enrich = (value: object) => `&enrichments=${encodeURIComponent(JSON.stringify(value))}`;
    const noDetails = (await h.waitForReport(DATE, enrich({ includeDetails: false }))).json<Body>();
    expect(noDetails.details).toBeUndefined();
    expect(noDetails.summary.status).toBe('ready');
    const noApp = (await h.waitForReport(DATE, enrich({ includeAppInfo: false }))).json<Body>();
    expect(noApp.details!.every((detail) => detail.app === undefined)).toBe(true);
    const noRuns = (await h.waitForReport(DATE, enrich({ includeManualRuns: false }))).json<Body>();
    expect(noRuns.details![0]!.app).toBeDefined();
    expect(noRuns.details!.every((detail) => detail.app.manualRuns === undefined)).toBe(true);
  });

  it('force regenerates the same summary id; a pending summary is not republished', async () => {
    const before = (await h.waitForReport(DATE)).json<Body>();
    h.fake.rows = [specRow('web', 9)];
    h.fake.delayMs = 300;
    const forced = await get(`/api/e2e_run_report?date=${DATE}&force=1`);
    expect(forced.statusCode).toBe(202);
    expect(forced.json<Body>().summary).toMatchObject({
      id: before.summary.id,
      status: 'pending',
      totalRuns: 0,
    });
    const again = await get(`/api/e2e_run_report?date=${DATE}`);
    expect(again.statusCode).toBe(202);
    const after = (await h.waitForReport(DATE)).json<Body>();
    expect(after.summary).toMatchObject({ id: before.summary.id, status: 'ready', totalRuns: 1 });
    expect(h.fake.requests).toHaveLength(1);
    const list = (await get(`/api/e2e_reports?from=${DATE}&to=${DATE}`)).json();
    expect(list.data).toHaveLength(1);
  });

  it('defaults the date to today (UTC)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await get('/api/e2e_run_report');
    expect([200, 202]).toContain(response.statusCode);
    expect(response.json<Body>().summary.date).toBe(today);
  });

  it('serves the detail endpoint and its 404s', async () => {
    const body = (await h.waitForReport(DATE)).json<Body>();
    const summaryId = body.summary.id as number;
    const detail = await get(`/api/e2e_run_report/${summaryId}/${web}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ reportSummaryId: summaryId, appId: web });
    expect(detail.json().data.app).toBeUndefined();
    const ignored = (await get('/api/apps'))
      .json()
      .data.find((app: { name: string }) => app.name === 'ignored');
    expect((await get(`/api/e2e_run_report/999999/${web}`)).statusCode).toBe(404);
    expect((await get(`/api/e2e_run_report/${summaryId}/999999`)).statusCode).toBe(404);
    expect((await get(`/api/e2e_run_report/${summaryId}/${ignored.id}`)).statusCode).toBe(404);
    for (const path of [`abc/${web}`, `${summaryId}/0`, `${summaryId}/-1`, `1.5/${web}`]) {
      const response = await get(`/api/e2e_run_report/${path}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.details[0].code).toBe('INVALID_ID');
    }
  });

  it.each([
    ['date=2025-02-30', 'date'],
    ['date=2025-13-01', 'date'],
    ['date=15-03-2025', 'date'],
    ['date=', 'date'],
    ['force=yes', 'force'],
    ['force=TRUE', 'force'],
    ['enrichments=not-json', 'enrichments'],
    [`enrichments=${encodeURIComponent('[true]')}`, 'enrichments'],
    [`enrichments=${encodeURIComponent('null')}`, 'enrichments'],
    [`enrichments=${encodeURIComponent('{"includeDetails":"yes"}')}`, 'enrichments'],
    [`enrichments=${encodeURIComponent('{"includeEverything":true}')}`, 'enrichments'],
  ])('answers 400 to %s', async (query, field) => {
    const response = await get(`/api/e2e_run_report?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('names date, force and enrichments together in one 400, and changes nothing', async () => {
    const before = (await get('/api/e2e_reports?limit=100')).json().data.length;
    const response = await get(
      `/api/e2e_run_report?date=2025-02-30&force=yes&enrichments=${encodeURIComponent('{"bogus":true}')}`,
    );
    expect(response.statusCode).toBe(400);
    const details = response.json().error.details as { field: string; code: string; message: string }[];
    expect(details.map((detail) => [detail.field, detail.code])).toEqual([
      ['date', 'INVALID_FORMAT'],
      ['force', 'INVALID_VALUE'],
      ['enrichments', 'INVALID_FORMAT'],
    ]);
    expect(details[2]!.message).toContain('bogus');
    expect((await get('/api/e2e_reports?limit=100')).json().data.length).toBe(before);
    expect(h.fake.requests).toHaveLength(0);
  });

  it('serves a summary by date, with details, and 404 / 400', async () => {
    const summary = await get(`/api/e2e_reports/${DATE}`);
    expect(summary.statusCode).toBe(200);
    expect(summary.json().data).toMatchObject({ date: DATE, status: 'ready' });
    const withDetails = await get(`/api/e2e_reports/${DATE}/details`);
    expect(withDetails.json().data.summary.date).toBe(DATE);
    expect(withDetails.json().data.details[0].app.name).toBeDefined();
    expect((await get('/api/e2e_reports/2020-01-01')).statusCode).toBe(404);
    expect((await get('/api/e2e_reports/2020-01-01/details')).statusCode).toBe(404);
    expect((await get('/api/e2e_reports/2020-02-30')).statusCode).toBe(400);
  });

  it('requires the API key for the report endpoints', async () => {
    const response = await h.app.inject({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    expect(response.statusCode).toBe(401);
  });
});
