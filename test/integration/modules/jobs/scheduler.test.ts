import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveServer, type LiveServer } from '../../../support/live-server.js';
import { type FakeCircleCi, startFakeCircleCi } from '../../../fakes/fake-circleci.js';
import { createJobRunsRepository } from '../../../../src/modules/jobs/jobs.repository.js';
import { openTestDatabase } from '../../../support/test-database.js';
import { redisAvailable, TEST_REDIS_URL } from '../../../support/services.js';
import { createJobRunner, type JobLogger } from '../../../../src/modules/jobs/job-runner.js';
import type { JobDefinition } from '../../../../src/modules/jobs/job-definitions.js';
import { createJobsApi } from '../../../../src/modules/jobs/jobs-api.js';
import {
  appTriggerJobName,
  latestTick,
  type Scheduler,
  startScheduler,
  type TriggerableApp,
} from '../../../../src/modules/jobs/scheduler.js';
import {
  createMemoryTickLock,
  createRedisTickLock,
  type TickLock,
} from '../../../../src/modules/jobs/tick-lock.js';
import { createManualClock } from '../../../support/manual-clock.js';

const quiet = { info() {}, warn() {}, error() {} };
// Every test moves a manual clock instead of waiting for real seconds to pass.
const START = '2025-01-01T09:00:00.000Z';

describe('latestTick', () => {
  const everySecond = new Cron('* * * * * *', { paused: true, timezone: 'UTC' });
  const daily = new Cron('0 9 * * *', { paused: true, timezone: 'UTC' });
  const at = (iso: string) => new Date(iso);

  it('is the planned instant when the timer fired on time', () => {
    expect(latestTick(daily, at('2025-01-01T09:00:00.000Z'), at('2025-01-01T09:00:00.004Z'))).toEqual(
      at('2025-01-01T09:00:00.000Z'),
    );
  });

  it('stays on the planned tick when the timer fired late (no second key for a late process)', () => {
    expect(latestTick(daily, at('2025-01-01T09:00:00.000Z'), at('2025-01-01T09:00:02.300Z'))).toEqual(
      at('2025-01-01T09:00:00.000Z'),
    );
  });

  it('moves to the latest due tick when earlier ones were skipped', () => {
    expect(latestTick(everySecond, at('2025-01-01T09:00:00.000Z'), at('2025-01-01T09:00:02.300Z'))).toEqual(
      at('2025-01-01T09:00:02.000Z'),
    );
  });
});

/** Two schedulers (as in two processes) running one per-second job; returns what ran. */
async function runTwoSchedulers(locks: [TickLock, TickLock], durationMs: number) {
  const clock = createManualClock(START);
  const database = await openTestDatabase('sqlite');
  const repository = createJobRunsRepository(database.db);
  const startsBySecond = new Map<number, number>();
  const job = (): JobDefinition => ({
    name: 'delete-completed-todos',
    description: 'test',
    schedule: '* * * * * *',
    async run() {
      const second = Math.floor(clock.now().getTime() / 1000);
      startsBySecond.set(second, (startsBySecond.get(second) ?? 0) + 1);
    },
  });
  const schedulers = locks.map((lock) =>
    startScheduler({
      jobs: [job()],
      timezone: 'UTC',
      lock,
      runner: createJobRunner({ repository, logger: quiet }),
      logger: quiet,
      clock,
    }),
  );
  await clock.advance(durationMs);
  await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
  const rows = await repository.listFor('delete-completed-todos', 100);
  await database.close();
  return { startsBySecond, rows };
}

describe('scheduler: one run per tick across schedulers', () => {
  it('with the in-process guard shared by two schedulers', async () => {
    const lock = createMemoryTickLock();
    const { startsBySecond, rows } = await runTwoSchedulers([lock, lock], 3200);
    expect(startsBySecond.size).toBe(3);
    expect([...startsBySecond.values()].every((count) => count === 1)).toBe(true);
    expect(rows).toHaveLength(startsBySecond.size);
    expect(rows.every((row) => row.outcome === 'success' && row.finished_at !== null)).toBe(true);
  });

  it.skipIf(!redisAvailable)('with the Redis lock (SET NX PX), one connection per scheduler', async () => {
    const namespace = `scheduler-test-${randomUUID()}:`;
    const connections = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
    try {
      const locks = connections.map((redis) => createRedisTickLock(redis, { namespace, ttlMs: 60_000 }));
      const { startsBySecond, rows } = await runTwoSchedulers([locks[0]!, locks[1]!], 3200);
      expect(startsBySecond.size).toBe(3);
      expect([...startsBySecond.values()].every((count) => count === 1)).toBe(true);
      expect(rows).toHaveLength(startsBySecond.size);
      const keys = await connections[0]!.keys(`${namespace}dashboard:jobs:tick:delete-completed-todos:*`);
      expect(keys).toHaveLength(rows.length);
      const ttl = await connections[0]!.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      const stale = await connections[0]!.keys(`${namespace}*`);
      if (stale.length) await connections[0]!.del(...stale);
      for (const redis of connections) redis.disconnect();
    }
  });

  it('records a failing job as failed with its error, and skips a tick whose lock cannot be reached', async () => {
    const database = await openTestDatabase('sqlite');
    const repository = createJobRunsRepository(database.db);
    const errors: string[] = [];
    const logger: JobLogger & { warn(): void } = {
      info() {},
      warn() {},
      error: (_object, message) => void errors.push(message),
    };
    const failing: JobDefinition = {
      name: 'e2e-report',
      description: 'test',
      schedule: '* * * * * *',
      run: () => Promise.reject(new Error('broker down')),
    };
    const unreachable: JobDefinition = { ...failing, name: 'pr-management', run: () => Promise.resolve() };
    const memory = createMemoryTickLock();
    const lock: TickLock = {
      claim: (job, tick) =>
        job === 'pr-management' ? Promise.reject(new Error('redis down')) : memory.claim(job, tick),
    };
    const clock = createManualClock(START);
    const scheduler = startScheduler({
      jobs: [failing, unreachable],
      timezone: 'UTC',
      lock,
      runner: createJobRunner({ repository, logger }),
      logger,
      clock,
    });
    await clock.advance(1100);
    await scheduler.stop();
    const failed = await repository.listFor('e2e-report', 10);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]).toMatchObject({ outcome: 'failed', error: 'broker down' });
    expect(await repository.listFor('pr-management', 10)).toEqual([]);
    expect(errors).toContain('tick lock unavailable; tick skipped');
    await database.close();
  });
});

describe('scheduler: per-app E2E triggers', () => {
  let scheduler: Scheduler | undefined;
  let server: LiveServer | undefined;
  let circleci: FakeCircleCi | undefined;
  afterEach(async () => {
    await scheduler?.stop();
    await server?.close();
    await circleci?.close();
    scheduler = server = circleci = undefined;
  });

  it('schedules only apps whose trigger is enabled and has a schedule, and follows changes', async () => {
    const database = await openTestDatabase('sqlite');
    let apps: TriggerableApp[] = [
      { id: 1, e2eTriggerConfiguration: { enabled: true, schedule: '* * * * * *' } },
      { id: 2, e2eTriggerConfiguration: { enabled: false, schedule: '* * * * * *' } },
      { id: 3, e2eTriggerConfiguration: { enabled: true } },
      { id: 4, e2eTriggerConfiguration: null },
    ];
    const triggered: number[] = [];
    const clock = createManualClock(START);
    scheduler = startScheduler({
      jobs: [],
      timezone: 'UTC',
      lock: createMemoryTickLock(),
      runner: createJobRunner({ repository: createJobRunsRepository(database.db), logger: quiet }),
      logger: quiet,
      appTriggers: {
        listApps: async () => apps,
        triggerRun: async (appId) => void triggered.push(appId),
      },
      appRefreshMs: 60_000,
      clock,
    });
    await clock.advance(0);
    await expect.poll(() => scheduler!.appTriggerNames()).toEqual([appTriggerJobName(1)]);
    await clock.advance(2000);
    await expect.poll(() => triggered.length).toBe(2);
    expect(new Set(triggered)).toEqual(new Set([1]));

    apps = [{ id: 1, e2eTriggerConfiguration: { enabled: false, schedule: '* * * * * *' } }];
    await scheduler.refreshAppTriggers();
    expect(scheduler.appTriggerNames()).toEqual([]);
    await clock.advance(3000);
    expect(triggered.length).toBe(2);
    await scheduler.stop();
    await database.close();
  });

  it('triggers a manual run through POST /api/e2e_manual_runs on the app schedule', async () => {
    const token = 'circle-token-for-scheduler-tests';
    circleci = await startFakeCircleCi(token);
    circleci.addProject('gh/acme/shop');
    server = await startLiveServer({ env: { CIRCLECI_BASE_URL: circleci.url, CIRCLECI_TOKEN: token } });
    const { client } = server;
    const app = await client.apps.create({
      name: 'Shop',
      code: 'shop',
      pipelineUrl: 'https://app.circleci.com/pipelines/gh/acme/shop',
      e2eTriggerConfiguration: { enabled: true, schedule: '* * * * * *' },
    });
    await client.apps.create({
      name: 'Blog',
      code: 'blog',
      pipelineUrl: 'https://app.circleci.com/pipelines/gh/acme/blog',
      e2eTriggerConfiguration: { enabled: false, schedule: '* * * * * *' },
    });
    const repository = createJobRunsRepository(server.database.db);
    const clock = createManualClock(START);
    scheduler = startScheduler({
      jobs: [],
      timezone: 'UTC',
      lock: createMemoryTickLock(),
      runner: createJobRunner({ repository, logger: quiet }),
      logger: quiet,
      appTriggers: createJobsApi(client),
      clock,
    });
    // The first read of the apps goes over HTTP: let it finish before the tick falls due.
    await clock.advance(0);
    await expect.poll(() => scheduler!.appTriggerNames()).toHaveLength(1);
    await clock.advance(1000);
    await expect.poll(async () => (await client.manualRuns.list()).data.length, { timeout: 5000 }).toBe(1);
    const [run] = (await client.manualRuns.list()).data;
    expect(run!.appId).toBe(app.data.id);
    expect(circleci.pipelines).toHaveLength(1);
    await expect
      .poll(async () => (await repository.listFor(appTriggerJobName(app.data.id), 10)).length)
      .toBeGreaterThanOrEqual(1);
    // GET /api/jobs lists only the four jobs, never the per-app triggers.
    expect((await client.jobs.list()).data.map((job) => job.name)).not.toContain(
      appTriggerJobName(app.data.id),
    );
  });
});

describe('job runner', () => {
  it('records start and end, and forgets runs older than the retention', async () => {
    const database = await openTestDatabase('sqlite');
    const repository = createJobRunsRepository(database.db);
    const old = await repository.start('e2e-report', '2020-01-01T09:00:00.000Z');
    const runner = createJobRunner({ repository, logger: quiet });
    const row = await runner.run('e2e-report', async () => 'done');
    expect(row).toMatchObject({ outcome: 'success', error: null });
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);
    expect((await repository.listFor('e2e-report', 10)).map((r) => r.id)).toEqual([row.id]);
    expect(old.id).not.toBe(row.id);
    await database.close();
  });
});
