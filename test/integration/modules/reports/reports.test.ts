import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../../src/broker/broker.js';
import { DIALECTS } from '../../../support/databases.js';
import { TEST_KEY } from '../../../support/test-app.js';
import {
  eventually,
  type ReportHarness,
  sleep,
  specRow,
  startReportHarness,
} from '../../../support/report-harness.js';

const DATE = '2025-03-15';

interface Body {
  success: boolean;
  summary: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- nested API objects, read freely
  details?: Record<string, any>[];
  message?: string;
}

describe.each(DIALECTS)('E2E report pipeline (%s)', (dialect) => {
  let h: ReportHarness;
  let web: number;
  let api: number;

  beforeAll(async () => {
    h = await startReportHarness({ dialect });
    web = await h.createApp('web');
    api = await h.createApp('api');
    await h.createApp('ignored', false);
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.fake.rows = [];
    h.fake.failures = [];
    h.fake.requests.length = 0;
    h.fake.delayMs = 0;
  });

  const get = (url: string) => h.api({ method: 'GET', url });
  const notifications = async (type: string) =>
    (await get(`/api/notifications?type=${type}`)).json().data as { data: Record<string, unknown> }[];

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

  it('retries after failures: two failures then success → ready', async () => {
    const date = '2025-04-02';
    h.fake.rows = [specRow('web', 1, { created_at: '2025-04-01T10:00:00.000Z' })];
    h.fake.failures = [500, 502];
    expect((await get(`/api/e2e_run_report?date=${date}`)).statusCode).toBe(202);
    const ready = (await h.waitForReport(date)).json<Body>();
    expect(ready.summary).toMatchObject({ status: 'ready', totalRuns: 1, passedRuns: 1 });
    expect(h.fake.requests.map((request) => request.status)).toEqual([500, 502, 200]);
    const metrics = await h.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-api-key': TEST_KEY },
    });
    expect(metrics.body).toMatch(/dashboard_reports_processed_total\{outcome="retry"\} [1-9]/);
  });

  it('four failures → failed, dead letter, system notification; replay → ready', async () => {
    const date = '2025-05-10';
    h.fake.rows = [specRow('web', 4, { created_at: '2025-05-09T10:00:00.000Z' })];
    h.fake.failures = [500, 500, 500, 500];
    expect((await get(`/api/e2e_run_report?date=${date}`)).statusCode).toBe(202);
    const failed = await h.waitForReport(date);
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toMatchObject({ success: true, summary: { date, status: 'failed' }, details: [] });
    expect(h.fake.requests).toHaveLength(4);

    const queue = (await get('/api/e2e_reports/queue')).json();
    expect(queue.data).toMatchObject({ broker: 'in-process', deadLetters: 1, queued: 0, inFlight: 0 });
    expect(queue.data.alerts).toEqual(['1 dead-lettered report requests']);
    const [letter] = (await get('/api/e2e_reports/dead_letter')).json().data;
    expect(letter).toMatchObject({ retryCount: 3, date, error: expect.stringContaining('500') });
    expect(JSON.parse(letter.message)).toEqual({ date, requestId: expect.any(String) });
    expect(letter.errorStack).toContain('Error');
    expect(Date.parse(letter.timestamp)).not.toBeNaN();
    // The worker stores the notification just after marking the summary failed: wait for it.
    await eventually(
      () => notifications('system'),
      (system) => system.some((n) => n.data.date === date),
    );

    const replay = await h.api({ method: 'POST', url: '/api/e2e_reports/dead_letter/replay' });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ success: true, data: { replayed: 1 } });
    const ready = await eventually(
      () => get(`/api/e2e_run_report?date=${date}`),
      (response) => response.json<Body>().summary.status === 'ready',
    );
    expect(ready.json<Body>().summary).toMatchObject({ totalRuns: 1 });
    expect((await get('/api/e2e_reports/queue')).json().data.deadLetters).toBe(0);
  });

  it('creates e2e_failure and e2e_success notifications on state changes from the day before', async () => {
    const day1 = '2025-06-01';
    const day2 = '2025-06-02';
    const day3 = '2025-06-03';
    h.fake.rows = [
      specRow('web', 10, { created_at: '2025-05-31T10:00:00.000Z' }),
      specRow('api', 20, { created_at: '2025-05-31T10:00:00.000Z', status: 'failed' }),
    ];
    await get(`/api/e2e_run_report?date=${day1}`);
    await h.waitForReport(day1);
    const failuresBefore = (await notifications('e2e_failure')).length;
    h.fake.rows.push(specRow('web', 11, { created_at: '2025-06-02T10:00:00.000Z', status: 'failed' }));
    await get(`/api/e2e_run_report?date=${day2}`);
    await h.waitForReport(day2);
    const failures = await notifications('e2e_failure');
    expect(failures.length).toBe(failuresBefore + 1);
    expect(failures[0]!.data).toEqual({
      appId: web,
      appName: 'web',
      runId: 11,
      failureCount: 1,
      failingSpecs: ['login.cy.ts'],
      quarantinedFailingSpecs: [],
      lastFailureAuthor: 'Ada Lovelace',
      failingSpecDetails: [{ spec: 'login.cy.ts', runUrl: null, error: null, suspects: [] }],
    });

    h.fake.rows.push(specRow('web', 12, { created_at: '2025-06-03T10:00:00.000Z' }));
    await get(`/api/e2e_run_report?date=${day3}`);
    await h.waitForReport(day3);
    const successes = await notifications('e2e_success');
    expect(successes.map((n) => n.data)).toContainEqual({
      appId: web,
      appName: 'web',
      runId: 12,
      failureCount: 1,
    });
    // Regenerating the same date does not repeat the notification.
    await get(`/api/e2e_run_report?date=${day3}&force=true`);
    await eventually(
      () => get(`/api/e2e_run_report?date=${day3}`),
      (response) => response.json<Body>().summary.status === 'ready',
    );
    expect(await notifications('e2e_success')).toHaveLength(successes.length);
  });

  it('processes one publish once however many workers subscribe, and republishing regenerates', async () => {
    const date = '2025-07-01';
    const { startReportWorker } = await import('../../../../src/roles/worker.js');
    const others = await Promise.all([1, 2].map(() => startReportWorker(h.container)));
    try {
      h.fake.rows = [specRow('web', 1, { created_at: '2025-06-30T10:00:00.000Z' })];
      await h.broker.publish(CHANNELS.reportGenerate, { date, requestId: 'once' });
      await h.broker.publish(CHANNELS.reportGenerate, { date, requestId: 'once' });
      await h.waitForReport(date);
      await sleep(300);
      expect(h.fake.requests).toHaveLength(1);
      await h.broker.publish(CHANNELS.reportGenerate, { date });
      await eventually(
        async () => h.fake.requests.length,
        (n) => n === 2,
      );
      await sleep(300);
      expect(h.fake.requests).toHaveLength(2);
    } finally {
      await Promise.all(others.map((worker) => worker.stop(2000)));
    }
  });

  it('regenerates one date in one worker at a time (lock per date)', async () => {
    const date = '2025-07-20';
    const { startReportWorker } = await import('../../../../src/roles/worker.js');
    const other = await startReportWorker(h.container);
    try {
      h.fake.rows = [specRow('web', 1, { created_at: '2025-07-19T10:00:00.000Z' })];
      h.fake.delayMs = 400;
      await h.broker.publish(CHANNELS.reportGenerate, { date, requestId: 'lock-a' });
      await h.broker.publish(CHANNELS.reportGenerate, { date, requestId: 'lock-b' });
      // Counted per date: a retry of another test's date may run beside these, and should.
      const forDate = () => h.fake.requests.filter((request) => request.query.get('end_date') === date);
      await eventually(
        async () => forDate().length,
        (n) => n === 2,
        15_000,
      );
      expect(h.fake.maxConcurrentByEndDate.get(date)).toBe(1);
      expect((await h.waitForReport(date)).json<Body>().summary.status).toBe('ready');
    } finally {
      await other.stop(5000);
    }
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

  it('lists summaries newest first with filters and pagination', async () => {
    const all = (await get('/api/e2e_reports')).json();
    const dates = all.data.map((s: { date: string }) => s.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const ready = (await get('/api/e2e_reports?status=ready&limit=2&offset=0')).json();
    expect(ready.data.every((s: { status: string }) => s.status === 'ready')).toBe(true);
    expect(ready.pagination).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    const ranged = (await get('/api/e2e_reports?from=2025-06-01&to=2025-06-02')).json();
    expect(ranged.data.map((s: { date: string }) => s.date)).toEqual(['2025-06-02', '2025-06-01']);
    for (const query of [
      'status=done',
      'from=2025-02-30',
      'limit=0',
      'limit=101',
      'offset=-1',
      'from=2025-06-02&to=2025-06-01',
    ]) {
      expect((await get(`/api/e2e_reports?${query}`)).statusCode, query).toBe(400);
    }
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

  it('reports trends per day overall and per app (N ≤ 90)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    h.fake.rows = [specRow('web', 1, { created_at: new Date().toISOString() })];
    const started = await get(`/api/e2e_run_report?date=${today}&force=true`);
    expect(started.statusCode, started.body).toBe(202);
    await eventually(
      () => get(`/api/e2e_run_report?date=${today}`),
      (response) => response.json<Body>().summary.status === 'ready',
    );
    const trends = (await get('/api/e2e_reports/trends?days=7')).json().data;
    expect(trends.days).toBe(7);
    expect(trends.to).toBe(today);
    expect(trends.overall.at(-1)).toMatchObject({ date: today, totalRuns: 1, successRate: 1 });
    expect(trends.apps).toContainEqual({
      appId: web,
      appName: 'web',
      points: [{ date: today, totalRuns: 1, passedRuns: 1, failedRuns: 0, successRate: 1 }],
    });
    for (const query of ['days=0', 'days=91', 'days=x']) {
      expect((await get(`/api/e2e_reports/trends?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('requires the API key for the report endpoints', async () => {
    const response = await h.app.inject({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    expect(response.statusCode).toBe(401);
  });
});
