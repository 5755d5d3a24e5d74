import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Broker } from '../../../src/broker/broker.js';
import { CHANNELS, reportKeys } from '../../../src/broker/broker.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { aggregateRows } from '../../../src/modules/reports/aggregation.js';
import { publishReportRequest } from '../../../src/modules/reports/report-requests.js';
import { addDays } from '../../../src/shared/time.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { TEST_KEY } from '../../support/test-app.js';
import { CYPRESS_KEY, eventually, specRow } from '../../support/report-harness.js';
import {
  openSharedDatabase,
  type ServiceProcess,
  type SharedDatabase,
  spawnService,
  uniqueNamespace,
} from './processes.js';

/**
 * Worker processes sharing one Redis queue and one database (PostgreSQL when available: several
 * processes writing one SQLite file works too, but serialises them).
 */
describe.runIf(redisAvailable)('report workers as separate processes on Redis', () => {
  let shared: SharedDatabase;
  let fake: FakeCypress;
  let broker: Broker;
  let inspector: Redis;
  let namespace: string;
  const processes: ServiceProcess[] = [];

  const workerEnv = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: shared.testDb.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_NAMESPACE: namespace,
    API_SECURITY_KEY: TEST_KEY,
    CYPRESS_BASE_URL: fake.url,
    CYPRESS_API_KEY: CYPRESS_KEY,
    REPORT_RETRY_BASE_MS: '100',
    ...extra,
  });

  const statusOf = async (date: string) =>
    (
      await shared.database.db
        .selectFrom('e2e_report_summaries')
        .select('status')
        .where('date', '=', date)
        .executeTakeFirst()
    )?.status;

  const waitForSubscribers = (count: number) =>
    eventually(
      async () =>
        Number(
          (
            (await inspector.pubsub('NUMSUB', `${namespace}${CHANNELS.reportGenerate}`)) as [string, number]
          )[1],
        ),
      (n) => n >= count,
      30_000,
    );

  beforeAll(async () => {
    shared = await openSharedDatabase(['web', 'api']);
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    inspector = new Redis(TEST_REDIS_URL);
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await broker?.close();
    const leftovers = await inspector.keys(`${namespace}*`);
    if (leftovers.length > 0) await inspector.del(...leftovers);
    inspector.disconnect();
    await fake.close();
    await shared.close();
  });

  it('three workers process 50 distinct dates, each exactly once', async () => {
    namespace = uniqueNamespace('three-workers');
    broker = createRedisBroker({ url: TEST_REDIS_URL, namespace });
    const dates = Array.from({ length: 50 }, (_, i) => addDays('2025-01-01', i));
    fake.rows = dates.map((date, i) =>
      specRow(i % 2 ? 'web' : 'api', i + 1, { created_at: `${date}T08:00:00.000Z` }),
    );
    fake.requests.length = 0;
    const workers = [1, 2, 3].map(() => spawnService('worker', workerEnv()));
    processes.push(...workers);
    await waitForSubscribers(3);

    // Half through the channel only (every worker receives it: de-duplicated), half also enqueued.
    for (const [i, date] of dates.entries()) {
      if (i % 2) await broker.publish(CHANNELS.reportGenerate, { date, requestId: `r-${date}` });
      else await publishReportRequest(broker, date);
    }
    await eventually(
      async () =>
        (
          await shared.database.db
            .selectFrom('e2e_report_summaries')
            .select('date')
            .where('status', '=', 'ready')
            .execute()
        ).length,
      (ready) => ready === 50,
      60_000,
    );
    const perDate = new Map<string, number>();
    for (const request of fake.requests) {
      const date = request.query.get('end_date')!;
      perDate.set(date, (perDate.get(date) ?? 0) + 1);
    }
    expect(fake.requests).toHaveLength(50);
    expect([...perDate.keys()].sort()).toEqual(dates);
    expect([...perDate.values()].every((count) => count === 1)).toBe(true);
    const summaries = await shared.database.db.selectFrom('e2e_report_summaries').selectAll().execute();
    expect(summaries).toHaveLength(50);
    const apps = await shared.database.db.selectFrom('apps').select(['id', 'name']).execute();
    for (const summary of summaries) {
      expect(summary.total_runs, summary.date).toBe(
        aggregateRows(apps, fake.rows, summary.date).totals.totalRuns,
      );
    }
    expect(summaries.find((summary) => summary.date === dates[20])!.total_runs).toBe(15);
    const stats = await broker.reportQueue.stats(Date.now());
    expect(stats).toMatchObject({ queued: 0, inFlight: 0, deadLetters: 0 });

    // Graceful stop: SIGTERM ends every worker cleanly.
    const codes = await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
    expect(codes).toEqual([0, 0, 0]);
    expect(await inspector.smembers(reportKeys(namespace).workers)).toEqual([]);
  }, 120_000);

  it('a worker killed with SIGKILL mid-message: another one finishes it after the visibility timeout', async () => {
    namespace = uniqueNamespace('sigkill');
    await broker?.close();
    broker = createRedisBroker({ url: TEST_REDIS_URL, namespace });
    const date = '2025-06-15';
    fake.rows = [specRow('web', 5, { created_at: '2025-06-14T10:00:00.000Z' })];
    fake.requests.length = 0;
    fake.hangs = 1;
    const env = workerEnv({ REPORT_VISIBILITY_MS: '1500', EXTERNAL_TIMEOUT_MS: '60000' });
    const doomed = spawnService('worker', env);
    processes.push(doomed);
    await waitForSubscribers(1);
    await publishReportRequest(broker, date);
    await eventually(
      async () => fake.requests.length,
      (n) => n === 1,
      30_000,
    );
    expect(await inspector.llen(reportKeys(namespace).queue)).toBe(0);
    expect((await broker.reportQueue.stats(Date.now())).inFlight).toBe(1);

    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    const rescuer = spawnService('worker', env);
    processes.push(rescuer);
    await eventually(
      () => statusOf(date),
      (status) => status === 'ready',
      60_000,
    );
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.status).toBe(200);
    // The worker acknowledges the message just after it commits the ready report: wait for it.
    const settled = await eventually(
      () => broker.reportQueue.stats(Date.now()),
      (stats) => stats.inFlight === 0,
      10_000,
    );
    expect(settled).toMatchObject({ inFlight: 0, queued: 0 });
    await rescuer.stop();
  }, 120_000);
});
