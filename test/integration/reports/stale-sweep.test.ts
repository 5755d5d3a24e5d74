import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { TEST_KEY } from '../../support/test-app.js';
import { CYPRESS_KEY, eventually, specRow } from '../../support/report-harness.js';
import {
  freePort,
  openSharedDatabase,
  type ServiceProcess,
  type SharedDatabase,
  spawnService,
  startPrivateRedis,
  uniqueNamespace,
} from './processes.js';

const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

const DATES = Array.from({ length: 30 }, (_, index) => `2025-04-${String(index + 1).padStart(2, '0')}`);
const STALE_MS = 3000;

interface QueueData {
  queued: number;
  inFlight: number;
  scheduledRetries: number;
  staleRepublished: number;
}

/**
 * Redis restarted without persistence loses every queued report request, leaving their dates
 * `pending`. The worker's periodic sweep (every REPORT_STALE_MS / 2) must find and republish
 * them, so all become ready without any client asking for them again.
 */
describe.runIf(redisServerInstalled)('stale pending sweep after Redis loses its data', () => {
  let shared: SharedDatabase;
  let fake: FakeCypress;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let service: ServiceProcess | undefined;
  let baseUrl: string;

  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-key': TEST_KEY } });
    return { status: response.status, text: await response.text() };
  };
  const readyCount = async () =>
    (
      await shared.database.db
        .selectFrom('e2e_report_summaries')
        .select('date')
        .where('status', '=', 'ready')
        .where('date', 'in', DATES)
        .execute()
    ).length;

  beforeAll(async () => {
    shared = await openSharedDatabase(['web']);
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    fake.rows = DATES.map((date, index) =>
      specRow('web', index + 1, { created_at: `${date}T08:00:00.000Z` }),
    );
    redis = await startPrivateRedis();
  });

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await redis.stop();
    await fake.close();
    await shared.close();
  });

  it('republishes all 30 stranded dates and counts them, with no client request', async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    service = spawnService('api,worker', {
      DATABASE_URL: shared.testDb.url,
      REDIS_URL: redis.url,
      REDIS_NAMESPACE: uniqueNamespace('stale'),
      API_SECURITY_KEY: TEST_KEY,
      CYPRESS_BASE_URL: fake.url,
      CYPRESS_API_KEY: CYPRESS_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      REPORT_STALE_MS: String(STALE_MS),
      // A failed attempt waits in Redis's retry set for ten minutes: only the sweep can save it.
      REPORT_RETRY_BASE_MS: '600000',
    });
    await eventually(
      () =>
        get('/health').then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      30_000,
    );

    // Every generation fails once, so each date's request sits in Redis (retry set), pending.
    fake.failures = Array.from({ length: 1000 }, () => 503);
    for (const date of DATES) expect((await get(`/api/e2e_run_report?date=${date}`)).status).toBe(202);
    await eventually(
      async () => JSON.parse((await get('/api/e2e_reports/queue')).text).data as QueueData,
      (data) => data.scheduledRetries + data.queued + data.inFlight >= 30 && data.queued === 0,
      30_000,
    );
    expect(await readyCount()).toBe(0);

    // Redis restarts empty: the queue and retry set are gone, the summaries stay pending.
    await redis.stop();
    redis = await startPrivateRedis(redis.port);
    fake.failures = [];
    const restartedAt = Date.now();
    await eventually(readyCount, (count) => count === DATES.length, 60_000);
    const elapsedMs = Date.now() - restartedAt;
    process.stdout.write(`stale sweep: 30 stranded dates ready ${elapsedMs} ms after the Redis restart\n`);
    expect(elapsedMs).toBeLessThan(30_000);

    const queue = JSON.parse((await get('/api/e2e_reports/queue')).text).data as QueueData;
    expect(queue.staleRepublished).toBeGreaterThanOrEqual(30);
    const metrics = await get('/metrics');
    const gauge = /^dashboard_report_stale_republished (\d+)/m.exec(metrics.text);
    expect(Number(gauge?.[1])).toBeGreaterThanOrEqual(30);
  }, 120_000);
});
