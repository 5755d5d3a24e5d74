import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../../src/broker/broker.js';
import { DIALECTS } from '../../../support/databases.js';
import { TEST_KEY } from '../../../support/test-app.js';
import { eventually, type ReportHarness, sleep, specRow } from '../../../support/report-harness.js';
import { type Body, resetFake, startPipeline } from './reports-support.js';

// The worker's side: retries, dead letters, notifications, several workers and the lock per date.
// The lists and trends come last because they read the many dates these tests made.

describe.each(DIALECTS)('E2E report pipeline (%s)', (dialect) => {
  let h: ReportHarness;
  let web: number;

  beforeAll(async () => {
    ({ h, web } = await startPipeline(dialect));
  });
  afterAll(async () => h.close());
  beforeEach(() => resetFake(h));

  const get = (url: string) => h.api({ method: 'GET', url });
  const notifications = async (type: string) =>
    (await get(`/api/notifications?type=${type}`)).json().data as { data: Record<string, unknown> }[];

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
});
