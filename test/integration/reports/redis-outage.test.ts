import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src/broker/broker.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { TEST_KEY } from '../../support/test-app.js';
import { CYPRESS_KEY, eventually, sleep, specRow } from '../../support/report-harness.js';
import {
  freePort,
  openSharedDatabase,
  type ServiceProcess,
  type SharedDatabase,
  spawnService,
  startPrivateRedis,
  uniqueNamespace,
  waitUntilHealthy,
} from './processes.js';

const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

/**
 * A private Redis (never the shared one) is stopped and restarted under a running service: the API
 * answers throughout (ready reports 200, publishes 503), and processing resumes afterwards. Also
 * checks the roles: an api-only process publishes but never processes.
 */
describe.runIf(redisServerInstalled)('report pipeline through a Redis outage', () => {
  let shared: SharedDatabase;
  let fake: FakeCypress;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  const processes: ServiceProcess[] = [];
  let baseUrl: string;
  const namespace = uniqueNamespace('outage');

  const env = (extra: Record<string, string>) => ({
    DATABASE_URL: shared.testDb.url,
    REDIS_URL: redis.url,
    REDIS_NAMESPACE: namespace,
    API_SECURITY_KEY: TEST_KEY,
    CYPRESS_BASE_URL: fake.url,
    CYPRESS_API_KEY: CYPRESS_KEY,
    REPORT_RETRY_BASE_MS: '200',
    ...extra,
  });

  const get = async (path: string) => {
    const t0 = Date.now();
    const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-key': TEST_KEY } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies read freely in assertions
    const body = (await response.json()) as Record<string, any>;
    return { status: response.status, body, elapsedMs: Date.now() - t0 };
  };

  beforeAll(async () => {
    shared = await openSharedDatabase(['web']);
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    fake.rows = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04'].map((date, i) =>
      specRow('web', i + 1, { created_at: `${date}T08:00:00.000Z` }),
    );
    redis = await startPrivateRedis();
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await redis.stop();
    await fake.close();
    await shared.close();
  });

  it('an api-only process publishes but never processes; a worker process does', async () => {
    const port = await freePort();
    const shared = env({ PORT: String(port), HOST: '127.0.0.1' });
    const api = spawnService('api', shared);
    processes.push(api);
    baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(baseUrl);
    expect((await get('/api/e2e_run_report?date=2025-03-01')).status).toBe(202);
    await sleep(1500);
    expect((await get('/api/e2e_reports/queue')).body.data).toMatchObject({ broker: 'redis', queued: 1 });
    expect(fake.requests).toHaveLength(0);

    const worker = spawnService('worker', { ...shared, PORT: '0' });
    processes.push(worker);
    const ready = await eventually(
      () => get('/api/e2e_run_report?date=2025-03-01'),
      (response) => response.status === 200,
      30_000,
    );
    expect(ready.body.summary).toMatchObject({ status: 'ready', totalRuns: 1 });
  }, 90_000);

  it('keeps answering while Redis is down and resumes processing when it is back', async () => {
    await redis.stop();
    // Ready reports, other resources and health keep answering; a needed publish is a 503.
    expect((await get('/api/e2e_run_report?date=2025-03-01')).status).toBe(200);
    expect((await get('/api/apps')).status).toBe(200);
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    const refused = await get('/api/e2e_run_report?date=2025-03-03');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.elapsedMs).toBeLessThan(8000);
    await sleep(1000);

    redis = await startPrivateRedis(redis.port);
    await eventually(
      () => get('/health').then((response) => response.body.status as string),
      (status) => status === 'ok',
      30_000,
    );
    const accepted = await eventually(
      () => get('/api/e2e_run_report?date=2025-03-03'),
      (response) => response.status !== 503,
      30_000,
    );
    expect(accepted.status).toBe(202);
    const ready = await eventually(
      () => get('/api/e2e_run_report?date=2025-03-03'),
      (response) => response.status === 200,
      30_000,
    );
    expect(ready.body.summary).toMatchObject({ status: 'ready', totalRuns: 3 });
    // A request sent through the channel only reaches the worker again (it re-subscribed).
    const broker = createRedisBroker({ url: redis.url, namespace });
    try {
      await broker.publish(CHANNELS.reportGenerate, { date: '2025-03-04', requestId: 'after-restart' });
      const viaChannel = await eventually(
        () => get('/api/e2e_run_report?date=2025-03-04'),
        (response) => response.status === 200,
        30_000,
      );
      expect(viaChannel.body.summary).toMatchObject({ status: 'ready', totalRuns: 4 });
    } finally {
      await broker.close();
    }
  }, 120_000);
});
