import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp, testConfig } from '../../../support/test-app.js';
import { ConfigError } from '../../../../src/config/config-error.js';
import { type FakeFcm, startFakeFcm } from '../../../fakes/fake-fcm-server.js';
import { nowIso } from '../../../../src/shared/time.js';
import { fcmFromConfig } from '../../../../src/integrations/integrations.js';
import { hashToken } from '../../../../src/modules/push/push.repository.js';
import { toPushMessage } from '../../../../src/modules/push/push-message.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

const CONCURRENCY = 10;

describe.each(DIALECTS)('push delivery of notifications through FCM (%s)', (dialect) => {
  let fake: FakeFcm;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeFcm();
    t = await createTestApp({
      dialect,
      env: {
        FCM_SERVICE_ACCOUNT_JSON: fake.serviceAccountJson,
        FCM_BASE_URL: fake.baseUrl,
        FCM_CONCURRENCY: String(CONCURRENCY),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('device_tokens').execute();
    await t.database.db.deleteFrom('notifications').execute();
    fake.reset();
  });

  const register = (token: string) =>
    t.api({ method: 'POST', url: '/api/push/register', payload: { token } });
  const notify = (body: object) => t.api({ method: 'POST', url: '/api/notifications', payload: body });
  const storedTokens = async () =>
    (await t.database.db.selectFrom('device_tokens').select('token').orderBy('token').execute()).map(
      (row) => row.token,
    );

  async function insertTokens(count: number) {
    const now = nowIso();
    const tokens = Array.from({ length: count }, (_, index) => `device-${String(index).padStart(4, '0')}`);
    for (let start = 0; start < count; start += 200) {
      await t.database.db
        .insertInto('device_tokens')
        .values(
          tokens
            .slice(start, start + 200)
            .map((token) => ({ token, token_hash: hashToken(token), created_at: now, last_used_at: now })),
        )
        .execute();
    }
    return tokens;
  }

  it('pushes the exact FCM message to every registered token', async () => {
    await register('phone-1');
    await register('phone-2');
    const res = await notify({
      title: 'Checkout failed',
      message: 'Run 812 failed',
      type: 'e2e_failure',
      data: {
        appId: 3,
        appName: 'Checkout',
        runId: 812,
        flaky: false,
        extra: { a: 1 },
        link: 'https://x.test/1',
      },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as number;
    await until(() => fake.delivered.length === 2);
    expect(fake.delivered.map((entry) => entry.token).sort()).toEqual(['phone-1', 'phone-2']);
    for (const { token, body } of fake.delivered) {
      expect(body).toEqual({
        message: {
          token,
          notification: { title: 'Checkout failed', body: 'Run 812 failed' },
          data: {
            notificationId: String(id),
            type: 'e2e_failure',
            appId: '3',
            appName: 'Checkout',
            runId: '812',
            flaky: 'false',
            extra: '{"a":1}',
            link: 'https://x.test/1',
          },
        },
      });
    }
  });

  it('answers the creating request before the push completes', async () => {
    await register('slow-phone');
    fake.latencyMs = 1500;
    const started = Date.now();
    const res = await notify({ title: 'Hello', message: 'World', type: 'info' });
    expect(res.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.delivered).toHaveLength(0);
    await until(() => fake.delivered.length === 1);
  });

  it('still creates the notification when FCM keeps failing', async () => {
    await register('phone');
    fake.failNext(
      ...Array.from({ length: 10 }, () => ({
        status: 400,
        body: { error: { status: 'FAILED_PRECONDITION' } },
      })),
    );
    const res = await notify({ title: 'Hello', message: 'World', type: 'info' });
    expect(res.statusCode).toBe(201);
    await until(() => fake.sendRequests >= 1);
    expect(await storedTokens()).toEqual(['phone']);
  });

  it('removes the tokens FCM answers UNREGISTERED or INVALID_ARGUMENT for, and only those', async () => {
    for (const token of ['good-1', 'uninstalled', 'garbage', 'good-2']) await register(token);
    fake.unregistered.add('uninstalled');
    fake.invalid.add('garbage');
    await notify({ title: 'Hello', message: 'World', type: 'system' });
    await until(async () => (await storedTokens()).length === 2);
    expect(await storedTokens()).toEqual(['good-1', 'good-2']);
    expect(fake.delivered.map((entry) => entry.token).sort()).toEqual(['good-1', 'good-2']);
  });

  it(`delivers to 1,000 tokens with at most FCM_CONCURRENCY=${CONCURRENCY} requests in flight`, async () => {
    const tokens = await insertTokens(1000);
    fake.latencyMs = 5;
    await notify({ title: 'Release', message: 'v2 is out', type: 'info' });
    await until(() => fake.delivered.length === 1000);
    expect(new Set(fake.delivered.map((entry) => entry.token))).toEqual(new Set(tokens));
    expect(fake.sendRequests).toBe(1000);
    expect(fake.maxInFlight).toBe(CONCURRENCY);
  });

  it('measures the push throughput against the fake (no added latency)', async () => {
    await insertTokens(1000);
    const started = performance.now();
    await notify({ title: 'Throughput', message: 'measure', type: 'info' });
    await until(() => fake.delivered.length === 1000);
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(1000 / seconds);
    process.stdout.write(
      `\n[push throughput, ${dialect}] 1000 tokens in ${seconds.toFixed(2)} s = ${rate} tokens/s ` +
        `(FCM_CONCURRENCY=${CONCURRENCY}, fake FCM on 127.0.0.1)\n`,
    );
    expect(rate).toBeGreaterThan(100);
  });
});

describe('push message of a notification', () => {
  const base = { id: 7, title: 'T', message: 'M', type: 'pr_update' };

  it('turns data values into strings and keeps notificationId and type authoritative', () => {
    const message = toPushMessage({
      ...base,
      data: {
        prId: 4,
        prNumber: 12,
        status: 'merged',
        notificationId: 'spoofed',
        type: 'x',
        missing: undefined,
        none: null,
      },
    });
    expect(message).toEqual({
      title: 'T',
      body: 'M',
      data: {
        prId: '4',
        prNumber: '12',
        status: 'merged',
        none: 'null',
        notificationId: '7',
        type: 'pr_update',
      },
    });
  });

  it('leaves out the data keys FCM reserves', () => {
    const message = toPushMessage({
      ...base,
      data: { from: 'a', 'google.x': 'b', gcm_y: 'c', collapse_key: 'd', ok: 'e' },
    });
    expect(message.data).toEqual({ ok: 'e', notificationId: '7', type: 'pr_update' });
  });

  it('keeps an oversized notification under the FCM payload limit', () => {
    const message = toPushMessage({
      ...base,
      title: 't'.repeat(300),
      message: 'm'.repeat(4000),
      data: { blob: 'b'.repeat(5000) },
    });
    expect(message.title).toHaveLength(200);
    expect(message.body).toHaveLength(1000);
    expect(message.data).toEqual({ notificationId: '7', type: 'pr_update' });
    expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThan(4096);
  });
});

describe('push configuration at boot', () => {
  function recordingLog() {
    const lines: string[] = [];
    const record = (...args: unknown[]) =>
      void lines.push(args.map((arg) => (typeof arg === 'string' ? arg : '')).join(''));
    return { lines, log: { info: record, warn: record, error: record, debug: record } as never };
  }

  it('is off without credentials, said once', () => {
    const { lines, log } = recordingLog();
    expect(fcmFromConfig(testConfig(), log)).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /push delivery is off.*FCM_SERVICE_ACCOUNT_JSON.*GOOGLE_APPLICATION_CREDENTIALS/i,
    );
  });

  it('is on with a service account, and refuses unusable credentials naming the variable', async () => {
    const fake = await startFakeFcm({ projectId: 'boot-check' });
    try {
      const { log } = recordingLog();
      const sender = fcmFromConfig(testConfig({ FCM_SERVICE_ACCOUNT_JSON: fake.serviceAccountJson }), log);
      expect(sender?.projectId).toBe('boot-check');
      const bad = testConfig({ FCM_SERVICE_ACCOUNT_JSON: '{"client_email": "x"}' });
      expect(() => fcmFromConfig(bad, log)).toThrow(ConfigError);
      expect(() => fcmFromConfig(bad, log)).toThrow(/FCM_SERVICE_ACCOUNT_JSON/);
    } finally {
      await fake.close();
    }
  });
});
