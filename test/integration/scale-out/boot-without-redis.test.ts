import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src/broker/broker.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../../src/db/database.js';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { CYPRESS_KEY, eventually, sleep, specRow } from '../../support/report-harness.js';
import {
  freePort,
  type ServiceProcess,
  spawnService,
  startPrivateRedis,
  uniqueNamespace,
} from '../reports/processes.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { postgresAvailable } from '../../support/services.js';
import { TEST_KEY } from '../../support/test-app.js';

const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

/**
 * Every role is started while nothing answers at REDIS_URL; a private redis-server is started
 * only afterwards. Until then the API serves what needs only the database and answers 503 to what
 * needs the broker; once Redis answers, the notification subscription, the report worker and the
 * scheduler all resume without a restart.
 */
describe.runIf(redisServerInstalled)('booting every role without Redis', () => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let fake: FakeCypress;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>> | undefined;
  let redisPort: number;
  const processes: ServiceProcess[] = [];
  let baseUrl: string;
  const namespace = uniqueNamespace('no-redis');
  const today = new Date().toISOString().slice(0, 10);

  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json', ...init.headers },
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies read freely in assertions
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    testDb = await createTestDatabase(postgresAvailable ? 'postgres' : 'sqlite');
    database = openDatabase(testDb.config);
    await migrateToLatest(database.db);
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    redisPort = await freePort();
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await redis?.stop();
    await fake.close();
    await database.close();
    await testDb.drop();
  });

  it('boots, serves the database, refuses broker work, and resumes everything when Redis starts', async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: testDb.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_NAMESPACE: namespace,
      API_SECURITY_KEY: TEST_KEY,
      CYPRESS_BASE_URL: fake.url,
      CYPRESS_API_KEY: CYPRESS_KEY,
      API_BASE_URL: baseUrl,
      // The report job every two seconds: its runs show when the scheduler works again.
      E2E_REPORT_CRON_SCHEDULE: '*/2 * * * * *',
      CRON_TZ: 'UTC',
    };
    processes.push(spawnService('api', { ...env, PORT: String(port), HOST: '127.0.0.1' }));
    processes.push(spawnService('worker', { ...env, PORT: '0' }));
    processes.push(spawnService('scheduler', { ...env, PORT: '0' }));

    const health = await eventually(
      () => get('/health').catch(() => ({ status: 0, body: {} })),
      (response) => response.status === 200,
      60_000,
    );
    expect(health.body).toMatchObject({ status: 'degraded', checks: { broker: { status: 'down' } } });

    // What needs only the database works.
    const app = await get('/api/apps', {
      method: 'POST',
      body: JSON.stringify({ name: 'web', code: 'web', pipelineUrl: 'https://ci.example.com/p' }),
    });
    expect(app.status).toBe(201);
    expect((await get('/api/apps')).status).toBe(200);
    const todo = await get('/api/to_do_list', { method: 'POST', body: JSON.stringify({ title: 'offline' }) });
    expect(todo.status).toBe(201);
    // What needs the broker is a 503, not a 500.
    for (const path of [`/api/e2e_run_report?date=${today}`, '/api/e2e_reports/queue']) {
      const refused = await get(path);
      expect(refused.status, path).toBe(503);
      expect(refused.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    await sleep(2500);
    for (const process of processes) expect(process.child.exitCode, process.output()).toBeNull();
    expect((await get('/api/jobs')).body.data[0].lastRun).toBeNull();

    fake.rows = [specRow('web', 1, { created_at: `${today}T00:00:01.000Z` })];
    const redisStarted = Date.now();
    redis = await startPrivateRedis(redisPort);
    const healthy = await eventually(
      () => get('/health'),
      (response) => response.body.status === 'ok',
      30_000,
    );
    const healthMs = Date.now() - redisStarted;
    expect(healthy.status).toBe(200);

    // The scheduler runs its job again (tick lock and publish both need Redis).
    await eventually(
      () => get('/api/jobs'),
      (response) => response.body.data[0].lastResult === 'success',
      30_000,
    );
    const schedulerMs = Date.now() - redisStarted;
    // The worker processes what the scheduler published.
    const report = await eventually(
      () => get(`/api/e2e_run_report?date=${today}`),
      (response) => response.status === 200,
      30_000,
    );
    expect(report.body.summary).toMatchObject({ status: 'ready', totalRuns: 1 });
    const workerMs = Date.now() - redisStarted;

    // The API's notification:create subscription, made while Redis was absent, now receives.
    const publisher = createRedisBroker({ url: redis.url, namespace });
    try {
      await publisher.publish(CHANNELS.notificationCreate, {
        title: 'Back online',
        message: 'subscribed after boot',
        type: 'info',
      });
      await eventually(
        () => get('/api/notifications'),
        (response) => response.body.data.some((row: { title: string }) => row.title === 'Back online'),
        15_000,
      );
    } finally {
      await publisher.close();
    }
    const notificationsMs = Date.now() - redisStarted;
    process.stdout.write(
      `\n[boot without Redis] after redis-server started: /health ok in ${healthMs} ms, ` +
        `scheduler job success in ${schedulerMs} ms, report ready in ${workerMs} ms, ` +
        `notification consumed in ${notificationsMs} ms\n`,
    );
  }, 180_000);
});
