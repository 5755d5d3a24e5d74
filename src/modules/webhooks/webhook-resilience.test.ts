import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../container.js';
import { buildTestApp } from '../../../test/support/test-container.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from '../../../test/fakes/fake-webhook-receiver.js';
import { openTestDatabase } from '../../../test/support/test-database.js';
import { captureLog } from '../../../test/support/log-capture.js';
import { startLiveServer } from '../../../test/support/live-server.js';
import { createTestApp, TEST_KEY, testConfig } from '../../../test/support/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const notification = { title: 'Nightly failed', message: 'Checkout failed', type: 'e2e_failure' as const };

describe('webhook delivery never holds up the caller, and survives a restart', () => {
  let receiver: FakeWebhookReceiver;
  beforeEach(async () => {
    receiver = await startFakeWebhookReceiver();
  });
  afterEach(async () => receiver.close());

  it(
    'a receiver that never answers does not slow POST /api/notifications (over real HTTP)',
    { timeout: 20_000 },
    async () => {
      const server = await startLiveServer({
        env: { EXTERNAL_TIMEOUT_MS: '3000', WEBHOOK_RETRY_DELAYS_MS: '50', WEBHOOK_POLL_MS: '50' },
      });
      try {
        receiver.hang = true;
        const hook = await server.client.webhooks.create({ url: receiver.url, kind: 'slack' });
        await server.client.notifications.create(notification);
        await receiver.waitFor(1);
        // The receiver holds every request open; creating notifications still answers at once.
        const timings: number[] = [];
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          await server.client.notifications.create(notification);
          timings.push(performance.now() - started);
        }
        // Waiting for the receiver would take the whole 3 s time-out; the margin absorbs a busy machine.
        expect(Math.max(...timings)).toBeLessThan(1500);
        // The time-out is an attempt like any other: recorded (and retried).
        const deadline = Date.now() + 10_000;
        let log = await server.client.webhooks.deliveries(hook.data.id);
        while (
          !log.data.some((entry) => entry.error === 'no answer within 3000 ms') &&
          Date.now() < deadline
        ) {
          await sleep(100);
          log = await server.client.webhooks.deliveries(hook.data.id);
        }
        expect(log.data).toContainEqual(
          expect.objectContaining({ error: 'no answer within 3000 ms', status: null, attempt: 1 }),
        );
      } finally {
        await server.close();
      }
    },
  );

  it(
    'a receiver that hangs does not hold up the deliveries to other webhooks',
    { timeout: 20_000 },
    async () => {
      const healthy = await startFakeWebhookReceiver();
      const t = await createTestApp({ env: { EXTERNAL_TIMEOUT_MS: '5000', WEBHOOK_POLL_MS: '50' } });
      try {
        receiver.hang = true;
        for (const url of [receiver.url, healthy.url]) {
          await t.api({ method: 'POST', url: '/api/webhooks', payload: { url, kind: 'generic' } });
        }
        const started = Date.now();
        for (let i = 0; i < 12; i++) {
          await t.api({
            method: 'POST',
            url: '/api/notifications',
            payload: { ...notification, title: `n${i}` },
          });
        }
        // Twelve deliveries hang on the first receiver for 5 s; the second one gets all of its own now.
        await healthy.waitFor(12, 4000);
        expect(Date.now() - started).toBeLessThan(4000);
        // The hanging receiver holds at most two requests of this process at a time.
        expect(receiver.received.length).toBeLessThanOrEqual(2);
      } finally {
        receiver.hang = false;
        await receiver.close();
        await t.close();
        await healthy.close();
      }
    },
  );

  it('a retry pending when the process stops is made by the next one on the same database', async () => {
    const database: DatabaseHandle = await openTestDatabase('sqlite');
    const env = { WEBHOOK_RETRY_DELAYS_MS: '300', WEBHOOK_POLL_MS: '50' };
    try {
      const first = await createTestApp({ database, env });
      await first.api({
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: receiver.url, kind: 'generic' },
      });
      receiver.status = 503;
      await first.api({ method: 'POST', url: '/api/notifications', payload: notification });
      await receiver.waitFor(1);
      await sleep(50);
      await first.close();
      expect(await database.db.selectFrom('webhook_jobs').select('attempts').execute()).toEqual([
        { attempts: 1 },
      ]);

      receiver.status = 200;
      const second = await createTestApp({ database, env });
      try {
        const [failed, retried] = await receiver.waitFor(2, 3000);
        expect(retried!.headers['x-dashboard-delivery']).toBe(failed!.headers['x-dashboard-delivery']);
        await sleep(200);
        expect(receiver.received).toHaveLength(2);
        expect(await database.db.selectFrom('webhook_jobs').selectAll().execute()).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  });

  it('logs carry neither the webhook URL nor the secret', async () => {
    const { stream, lines } = captureLog();
    const database = await openTestDatabase('sqlite');
    const config = testConfig({
      LOG_LEVEL: 'trace',
      WEBHOOK_RETRY_DELAYS_MS: '20',
      WEBHOOK_POLL_MS: '20',
    });
    const app = await buildTestApp(config, { database, log: createLogger(config, stream) });
    const secret = 'never-log-this-secret-value';
    try {
      const inject = (method: 'POST' | 'PUT', url: string, payload?: object) =>
        app.inject({ method, url, payload, headers: { 'x-api-key': TEST_KEY } });
      const created = await inject('POST', '/api/webhooks', { url: receiver.url, kind: 'generic', secret });
      const id = created.json().data.id as number;
      receiver.status = 500;
      await inject('POST', '/api/notifications', notification);
      await receiver.waitFor(2);
      await inject('POST', `/api/webhooks/${id}/test`);
      await inject('PUT', `/api/webhooks/${id}`, { url: `${receiver.url}?v=2`, secret: `${secret}-2` });
      await receiver.close();
      await inject('POST', `/api/webhooks/${id}/test`);
      await sleep(100);
    } finally {
      await app.close();
      await database.close();
    }
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain('webhook delivery given up');
    expect(log).not.toContain(new URL(receiver.url).pathname);
    expect(log).not.toContain(secret);
  });
});
