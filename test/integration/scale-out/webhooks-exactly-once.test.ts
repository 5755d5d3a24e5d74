import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient } from '../../../src/client/index.js';
import { type FakeWebhookReceiver, startFakeWebhookReceiver } from '../../fakes/fake-webhook-receiver.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { freePort } from '../../support/free-port.js';
import { postgresAvailable, redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { TEST_KEY } from '../../support/test-app.js';

/**
 * Two API processes on one PostgreSQL database and one Redis (its own database index and key
 * namespace), each running a webhook dispatcher: every notification, whichever process created
 * it, reaches the receiver once, and its retry is made once although both processes race for it.
 */
const REDIS_DB = 12;
const NAMESPACE = `webhooks-${randomUUID()}:`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgresAvailable || !redisAvailable)('webhooks with two API processes on Redis', () => {
  const children: { child: ChildProcess; output: string[] }[] = [];
  let testDb: TestDatabase;
  let redis: Redis;
  let receiver: FakeWebhookReceiver;
  let apis: DashboardClient[];

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    receiver = await startFakeWebhookReceiver();
    const redisUrl = new URL(TEST_REDIS_URL);
    redisUrl.pathname = `/${REDIS_DB}`;
    redis = new Redis(redisUrl.toString());
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--roles', 'api'], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: testDb.url,
          REDIS_URL: redisUrl.toString(),
          REDIS_NAMESPACE: NAMESPACE,
          API_SECURITY_KEY: TEST_KEY,
          RATE_LIMIT_MAX: '0',
          // Both processes look for due deliveries every 30 ms, so they race for every retry.
          WEBHOOK_POLL_MS: '30',
          WEBHOOK_RETRY_DELAYS_MS: '150,150,150',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      children.push({ child, output });
    }
    apis = ports.map(
      (port) => new DashboardClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: TEST_KEY, retries: 0 }),
    );
    for (const api of apis) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const health = await api.health().catch(() => undefined);
        if (health?.status === 'ok') break;
        if (Date.now() > deadline) throw new Error(children.map((c) => c.output.join('')).join('\n---\n'));
        await sleep(250);
      }
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    const keys = await redis.keys(`${NAMESPACE}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await receiver.close();
    await testDb.drop();
  }, 60_000);

  it('each notification is delivered once, its retry made by one process', async () => {
    // The first attempt of every delivery fails with 503, the retry succeeds.
    const seen = new Set<string>();
    receiver.reply = (request) => {
      const id = String(request.headers['x-dashboard-delivery']);
      if (seen.has(id)) return { status: 200 };
      seen.add(id);
      return { status: 503 };
    };
    await apis[0]!.call('POST', '/api/webhooks', { body: { url: receiver.url, kind: 'generic' } });

    const viaHttp = Array.from({ length: 20 }, (_, i) =>
      apis[i % 2]!.notifications.create({ title: `HTTP ${i}`, message: 'm', type: 'info' }),
    );
    // Messages on the broker reach both processes; one of them stores each.
    for (let i = 0; i < 10; i++) {
      await redis.publish(
        `${NAMESPACE}notification:create`,
        JSON.stringify({ title: `Broker ${i}`, message: 'm', type: 'system', requestId: randomUUID() }),
      );
    }
    await Promise.all(viaHttp);

    const expected = 30;
    await receiver.waitFor(expected * 2, 30_000);
    await sleep(1000);

    const byNotification = new Map<number, number>();
    const statuses = new Map<string, number>();
    for (const request of receiver.received) {
      const { id } = request.body as { id: number };
      byNotification.set(id, (byNotification.get(id) ?? 0) + 1);
      const delivery = String(request.headers['x-dashboard-delivery']);
      statuses.set(delivery, (statuses.get(delivery) ?? 0) + 1);
    }
    const titles = receiver.received.map((request) => (request.body as { title: string }).title);
    expect(new Set(titles).size).toBe(expected);
    expect(receiver.received).toHaveLength(expected * 2);
    expect(byNotification.size).toBe(expected);
    expect([...byNotification.values()].every((hits) => hits === 2)).toBe(true);
    expect([...statuses.values()].every((count) => count === 2)).toBe(true);

    const hooks = await apis[1]!.call<{ data: { id: number }[] }>('GET', '/api/webhooks');
    const log = await apis[1]!.call<{ data: { status: number; attempt: number }[] }>(
      'GET',
      `/api/webhooks/${hooks.data[0]!.id}/deliveries`,
    );
    expect(log.data.filter((entry) => entry.status === 200).every((entry) => entry.attempt === 2)).toBe(true);
  }, 60_000);
});
