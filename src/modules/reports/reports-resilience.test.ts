import { afterEach, describe, expect, it } from 'vitest';
import type { Broker } from '../../broker/broker.js';
import { createInProcessBroker } from '../../broker/in-process-broker.js';
import { TEST_KEY } from '../../../test/support/test-app.js';
import {
  eventually,
  type ReportHarness,
  sleep,
  specRow,
  startReportHarness,
} from '../../../test/support/report-harness.js';

const DATE = '2025-03-15';

interface Body {
  summary: Record<string, unknown>;
}

describe('E2E report API with special brokers and timings', () => {
  let h: ReportHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('republishes a pending summary older than REPORT_STALE_MS', async () => {
    // Long enough that the first two requests fall inside it on a loaded machine.
    h = await startReportHarness({ worker: false, env: { REPORT_STALE_MS: '1500' } });
    const date = '2025-08-01';
    expect((await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${date}` })).statusCode).toBe(202);
    expect((await h.broker.reportQueue.stats(Date.now())).queued).toBe(1);
    expect((await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${date}` })).statusCode).toBe(202);
    expect((await h.broker.reportQueue.stats(Date.now())).queued).toBe(1);
    await sleep(1600);
    const stale = await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${date}` });
    expect(stale.statusCode).toBe(202);
    expect(stale.json().summary.id).toEqual(expect.any(Number));
    expect((await h.broker.reportQueue.stats(Date.now())).queued).toBe(2);
  });

  it('answers 503 when a publish is needed and the broker is down, and still serves ready reports', async () => {
    const broker = createInProcessBroker({ namespace: 'down-test:' });
    h = await startReportHarness({ broker });
    h.fake.rows = [specRow('web', 1)];
    await h.createApp('web');
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    await h.waitForReport(DATE);
    await h.worker!.stop(1000);
    await broker.close();
    const ready = await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    expect(ready.statusCode).toBe(200);
    const missing = await h.api({ method: 'GET', url: '/api/e2e_run_report?date=2025-09-09' });
    expect(missing.statusCode).toBe(503);
    expect(missing.json().error.code).toBe('SERVICE_UNAVAILABLE');
    const forced = await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}&force=true` });
    expect(forced.statusCode).toBe(503);
    expect(
      (await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` })).json().summary.status,
    ).toBe('ready');
    expect((await h.api({ method: 'GET', url: '/api/e2e_reports/queue' })).statusCode).toBe(503);
  });

  it('puts back a message it could not settle, and processes it again', async () => {
    const inner = createInProcessBroker({ namespace: 'settle-test:' });
    let failures = 1;
    const broker: Broker = {
      ...inner,
      reportQueue: {
        ...inner.reportQueue,
        complete: async (workerId, payload) => {
          if (failures-- > 0) throw new Error('broker hiccup while settling');
          return inner.reportQueue.complete(workerId, payload);
        },
      },
    };
    h = await startReportHarness({ broker });
    await h.createApp('web');
    h.fake.rows = [specRow('web', 1)];
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    await eventually(
      async () => h!.fake.requests.length,
      (n) => n === 2,
    );
    await eventually(
      () => inner.reportQueue.stats(Date.now()),
      (stats) => stats.queued + stats.inFlight + stats.scheduledRetries === 0,
    );
    expect((await h.waitForReport(DATE)).json<Body>().summary.status).toBe('ready');
    await h.close();
    h = undefined;
    await inner.close();
  });

  it('retries after base, 2 × base and 4 × base (5 s, 10 s, 20 s by default)', async () => {
    h = await startReportHarness({ env: { REPORT_RETRY_BASE_MS: '300' } });
    await h.createApp('web');
    h.fake.rows = [specRow('web', 1)];
    h.fake.failures = [500, 500, 500, 500];
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    const failed = await h.waitForReport(DATE);
    expect(failed.json<Body>().summary.status).toBe('failed');
    const gaps = h.fake.requests.slice(1).map((request, i) => request.at - h!.fake.requests[i]!.at);
    expect(gaps).toHaveLength(3);
    for (const [i, expected] of [300, 600, 1200].entries()) {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected - 20);
      expect(gaps[i]).toBeLessThan(expected + 700);
    }
  });

  it('keeps every field of the published message through retries and in the dead letter', async () => {
    h = await startReportHarness();
    await h.createApp('web');
    h.fake.failures = [500, 500, 500, 500];
    const queue = h.broker.reportQueue;
    const original = { date: '2025-09-01', requestId: 'keep-me', source: 'cron' };
    await queue.enqueue(JSON.stringify(original));
    await eventually(
      async () => (await queue.stats(Date.now())).deadLetters,
      (count) => count === 1,
    );
    const [letter] = await queue.deadLetters(1);
    expect(JSON.parse(letter!.message)).toEqual(original);
    expect(letter).toMatchObject({ retryCount: 3, date: '2025-09-01' });
  });

  it('sweeps summaries stuck in pending at start', async () => {
    h = await startReportHarness({ worker: false, env: { REPORT_STALE_MS: '1' } });
    await h.api({ method: 'GET', url: '/api/e2e_run_report?date=2025-08-02' });
    await h.broker.reportQueue.take('thief', 0); // the request is lost
    await sleep(10);
    const { startReportWorker } = await import('../../roles/worker.js');
    const worker = await startReportWorker(h.container);
    try {
      const ready = await h.waitForReport('2025-08-02');
      expect(ready.json().summary.status).toBe('ready');
    } finally {
      await worker.stop(1000);
    }
  });

  it('shutdown finishes the message in hand', async () => {
    h = await startReportHarness();
    await h.createApp('web');
    h.fake.rows = [specRow('web', 1)];
    h.fake.delayMs = 700;
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    await eventually(
      async () => h!.fake.requests.length,
      (n) => n === 1,
    );
    await h.worker!.stop(10_000);
    const summary = await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    expect(summary.statusCode).toBe(200);
    expect(summary.json().summary.status).toBe('ready');
  });

  it('guards /metrics with the key (x-api-key or Bearer) and exposes the pipeline metrics', async () => {
    h = await startReportHarness({ worker: false });
    expect((await h.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } }))
        .statusCode,
    ).toBe(401);
    await h.api({ method: 'GET', url: '/api/apps' });
    const viaHeader = await h.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-api-key': TEST_KEY },
    });
    const viaBearer = await h.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaBearer.statusCode).toBe(200);
    expect(viaHeader.headers['content-type']).toContain('text/plain');
    for (const name of [
      'dashboard_report_queue_length',
      'dashboard_report_in_flight',
      'dashboard_report_scheduled_retries',
      'dashboard_report_dead_letters',
      'dashboard_report_processing_duration_seconds',
      'dashboard_reports_processed_total',
      'dashboard_http_request_duration_seconds_bucket{',
      'dashboard_process_cpu_user_seconds_total',
    ]) {
      expect(viaHeader.body, name).toContain(name);
    }
    expect(viaHeader.body).toContain('route="/api/apps"');
  });
});
