import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { createTestContainer, type TestContainer } from '../../support/test-container.js';
import type { Broker } from '../../../src/broker/broker.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';
import type { Scheduler } from '../../../src/modules/jobs/scheduler.js';
import { appTriggerJobName } from '../../../src/modules/jobs/scheduler.js';
import { startSchedulerRole } from '../../../src/roles/scheduler.js';

// An hour between periodic re-reads: anything seen sooner came from the change itself.
const NO_PERIODIC_REFRESH_MS = 3_600_000;
const SOON_MS = 3000;

const appBody = (schedule: string) => ({
  name: 'Nightly',
  code: `nightly-${randomUUID().slice(0, 8)}`,
  pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/shop',
  e2eTriggerConfiguration: { enabled: true, schedule },
});

async function exercise(server: LiveServer, scheduler: Scheduler) {
  // The scheduler's first read (no apps yet) is done before the changes below.
  await scheduler.refreshAppTriggers();
  const { data: app } = await server.client.apps.create(appBody('15 3 * * *'));
  const name = appTriggerJobName(app.id);
  await expect.poll(() => scheduler.appTriggerNames(), { timeout: SOON_MS }).toContain(name);
  expect(scheduler.nextRun(name)?.getUTCHours()).toBe(3);

  await server.client.apps.update(app.id, {
    e2eTriggerConfiguration: { enabled: true, schedule: '40 5 * * *' },
  });
  await expect.poll(() => scheduler.nextRun(name)?.getUTCHours(), { timeout: SOON_MS }).toBe(5);

  await server.client.apps.update(app.id, {
    e2eTriggerConfiguration: { enabled: false, schedule: '40 5 * * *' },
  });
  await expect.poll(() => scheduler.appTriggerNames(), { timeout: SOON_MS }).not.toContain(name);

  const { data: other } = await server.client.apps.create(appBody('0 1 * * *'));
  await expect
    .poll(() => scheduler.appTriggerNames(), { timeout: SOON_MS })
    .toContain(appTriggerJobName(other.id));
  await server.client.apps.remove(other.id);
  await expect.poll(() => scheduler.appTriggerNames(), { timeout: SOON_MS }).toEqual([]);
}

describe('per-app E2E trigger schedules take effect at once', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('in the process that saved the app (told directly)', async () => {
    const server = await startLiveServer({ env: { CRON_TZ: 'UTC' } });
    cleanups.push(() => server.close());
    const scheduler = await startSchedulerRole(server.container, {
      apiBaseUrl: server.baseUrl,
      appRefreshMs: NO_PERIODIC_REFRESH_MS,
    });
    cleanups.push(() => scheduler.stop(1000));
    await exercise(server, scheduler);
  });

  it.runIf(redisAvailable)('in a scheduler process elsewhere (told through the broker)', async () => {
    const namespace = `trigger-test:${randomUUID()}:`;
    const brokers: Broker[] = [
      createRedisBroker({ url: TEST_REDIS_URL, namespace }),
      createRedisBroker({ url: TEST_REDIS_URL, namespace }),
    ];
    cleanups.push(async () => void (await Promise.all(brokers.map((broker) => broker.close()))));
    const server = await startLiveServer({ env: { CRON_TZ: 'UTC' }, deps: { broker: brokers[0]! } });
    cleanups.push(() => server.close());
    // Another process: its own container and broker connection over the same database.
    const elsewhere: TestContainer = createTestContainer(server.config, {
      database: server.database,
      broker: brokers[1]!,
    });
    cleanups.push(() => elsewhere.close());
    const scheduler = await startSchedulerRole(elsewhere, {
      apiBaseUrl: server.baseUrl,
      appRefreshMs: NO_PERIODIC_REFRESH_MS,
    });
    cleanups.push(() => scheduler.stop(1000));
    await exercise(server, scheduler);
  });
});
