import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../support/test-database.js';
import { redisAvailable, TEST_REDIS_URL } from '../../../support/services.js';
import { testConfig } from '../../../support/test-app.js';
import { untyped } from '../../../support/untyped-broker.js';
import { buildTestApp } from '../../../support/test-container.js';
import { type Broker, CHANNELS } from '../../../../src/broker/broker.js';
import { createInProcessBroker } from '../../../../src/broker/in-process-broker.js';
import { createRedisBroker } from '../../../../src/broker/redis-broker.js';
import type { DatabaseHandle } from '../../../../src/db/database.js';
import { type FakeFcm, startFakeFcm } from '../../../fakes/fake-fcm-server.js';
import { createDeviceTokensRepository } from '../../../../src/modules/push/push.repository.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Kind {
  name: string;
  /** One broker per simulated process (the in-process broker is one object shared by all). */
  brokers(count: number, namespace: string): Broker[];
}

const kinds: Kind[] = [
  {
    name: 'in-process',
    brokers(count, namespace) {
      const shared = createInProcessBroker({ namespace });
      return Array.from({ length: count }, () => shared);
    },
  },
  ...(redisAvailable
    ? [
        {
          name: 'redis',
          brokers: (count: number, namespace: string) =>
            Array.from({ length: count }, () => createRedisBroker({ url: TEST_REDIS_URL, namespace })),
        },
      ]
    : []),
];

describe.each(kinds)('notification:create consumed by three API processes ($name broker)', (kind) => {
  let fake: FakeFcm;
  let database: DatabaseHandle;
  let brokers: Broker[];
  let publisher: Broker;
  let apps: FastifyInstance[];

  beforeAll(async () => {
    fake = await startFakeFcm();
    database = await openTestDatabase('sqlite');
    // Unique per run: Redis pub/sub channels are shared by every test on the machine.
    brokers = kind.brokers(4, `test:${randomUUID()}:`);
    publisher = brokers.pop()!;
    const config = testConfig({
      FCM_SERVICE_ACCOUNT_JSON: fake.serviceAccountJson,
      FCM_BASE_URL: fake.baseUrl,
    });
    apps = await Promise.all(brokers.map((broker) => buildTestApp(config, { database, broker })));
    await Promise.all(apps.map((app) => app.ready()));
    await createDeviceTokensRepository(database.db).upsert('device-1');
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all([...new Set([...brokers, publisher])].map((broker) => broker.close()));
    await database.close();
    await fake.close();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('notifications').execute();
    fake.reset();
  });

  const stored = () => database.db.selectFrom('notifications').selectAll().orderBy('id').execute();
  async function settle(expectedRows: number) {
    const deadline = Date.now() + 5000;
    while ((await stored()).length < expectedRows && Date.now() < deadline) await sleep(20);
    // Give the losing subscribers time to (wrongly) act as well.
    await sleep(300);
    await Promise.all(apps.map((app) => app.inject({ method: 'GET', url: '/health' })));
  }

  it('stores and pushes each message exactly once', async () => {
    await publisher.publish(CHANNELS.notificationCreate, {
      title: '3 tickets need manual testing',
      message: 'QA-1, QA-2, QA-3',
      type: 'info',
      data: { count: 3, keys: ['QA-1', 'QA-2', 'QA-3'] },
    });
    await settle(1);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: '3 tickets need manual testing', type: 'info' });
    expect(JSON.parse(rows[0]!.data!)).toEqual({ count: 3, keys: ['QA-1', 'QA-2', 'QA-3'] });

    const deadline = Date.now() + 5000;
    while (fake.delivered.length === 0 && Date.now() < deadline) await sleep(20);
    await sleep(200);
    expect(fake.delivered).toHaveLength(1);
    expect(fake.delivered[0]!.body.message.data).toEqual({
      count: '3',
      keys: '["QA-1","QA-2","QA-3"]',
      notificationId: String(rows[0]!.id),
      type: 'info',
    });
  });

  it('treats messages with distinct requestIds as distinct, and a repeated requestId as one', async () => {
    const input = { title: 'Deploy', message: 'Nightly deploy done', type: 'system' as const };
    await publisher.publish(CHANNELS.notificationCreate, { ...input, requestId: 'r-1' });
    await publisher.publish(CHANNELS.notificationCreate, { ...input, requestId: 'r-1' });
    await publisher.publish(CHANNELS.notificationCreate, { ...input, requestId: 'r-2' });
    await settle(2);
    expect(await stored()).toHaveLength(2);
  });

  it('ignores messages that are not valid notifications', async () => {
    await untyped(publisher).publish(CHANNELS.notificationCreate, { title: 'No type', message: 'x' });
    await untyped(publisher).publish(CHANNELS.notificationCreate, {
      title: 'Bad',
      message: 'x',
      type: 'alert',
    });
    await untyped(publisher).publish(CHANNELS.notificationCreate, 'not an object');
    await publisher.publish(CHANNELS.notificationCreate, { title: 'Good', message: 'x', type: 'info' });
    await settle(1);
    expect((await stored()).map((row) => row.title)).toEqual(['Good']);
  });
});
