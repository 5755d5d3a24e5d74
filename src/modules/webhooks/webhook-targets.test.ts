import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInternalAddress } from '../../integrations/webhooks/address-rule.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from '../../../test/fakes/fake-webhook-receiver.js';
import { openTestDatabase } from '../../../test/support/test-database.js';
import { createTestApp, type TestApp, testConfig } from '../../../test/support/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const INTERNAL_URLS = [
  'http://127.0.0.1:9/hook',
  'http://localhost:9/hook',
  'http://[::1]:9/hook',
  'http://10.1.2.3/hook',
  'http://172.20.0.5/hook',
  'http://192.168.1.10/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://100.64.0.1/hook',
  'http://0.0.0.0/hook',
  'http://[fd00::1]/hook',
  'http://[fe80::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  // IPv6 forms that carry a loopback or link-local IPv4 address, site-local, multicast, broadcast.
  'http://[::127.0.0.1]/hook',
  'http://[::ffff:0:127.0.0.1]/hook',
  'http://[64:ff9b::127.0.0.1]/hook',
  'http://[64:ff9b:1::7f00:1]/hook',
  'http://[2002:7f00:1::]/hook',
  'http://[2002:a9fe:a9fe::]/hook',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
  'http://[fec0::1]/hook',
  'http://224.0.0.1/hook',
  'http://255.255.255.255/hook',
];

describe('webhook targets: internal addresses in production', () => {
  let database: DatabaseHandle;
  let production: TestApp;
  let allowed: TestApp;
  let development: TestApp;
  let receiver: FakeWebhookReceiver;
  const fast = { WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_DELAYS_MS: '50' };

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    receiver = await startFakeWebhookReceiver();
    production = await createTestApp({ database, env: { NODE_ENV: 'production', ...fast } });
    allowed = await createTestApp({
      database,
      env: { NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: 'true', ...fast },
    });
    development = await createTestApp({ database, env: fast });
  });
  afterAll(async () => {
    await production.close();
    await allowed.close();
    await development.close();
    await receiver.close();
    await database.close();
  });

  it('knows the internal ranges, and nothing public is among them', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.1.1',
      '::1',
      'fe80::2',
      'fc00::1',
      '::ffff:10.0.0.1',
      '::',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('production refuses them at create and update with 400 INVALID_URL, storing nothing', async () => {
    for (const url of INTERNAL_URLS) {
      const res = await production.api({
        method: 'POST',
        url: '/api/webhooks',
        payload: { url, kind: 'generic' },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details).toEqual([
        expect.objectContaining({ field: 'url', code: 'INVALID_URL' }),
      ]);
    }
    expect(await database.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);

    const publicHook = await production.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: 'https://93.184.216.34/hook', kind: 'generic' },
    });
    expect(publicHook.statusCode).toBe(201);
    const id = publicHook.json().data.id as number;
    for (const url of [
      'http://127.0.0.1/x',
      'http://[::ffff:0:127.0.0.1]/x',
      'http://[2002:a9fe:a9fe::]/x',
    ]) {
      const moved = await production.api({ method: 'PUT', url: `/api/webhooks/${id}`, payload: { url } });
      expect(moved.statusCode, url).toBe(400);
    }
    expect((await production.api({ method: 'GET', url: `/api/webhooks/${id}` })).json().data.url).toBe(
      'https://93.184.216.34/…',
    );
    await production.api({ method: 'DELETE', url: `/api/webhooks/${id}` });
  });

  it('WEBHOOK_ALLOW_PRIVATE=true and non-production accept them', async () => {
    for (const t of [allowed, development]) {
      const res = await t.api({
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: receiver.url, kind: 'generic' },
      });
      expect(res.statusCode).toBe(201);
      await t.api({ method: 'DELETE', url: `/api/webhooks/${res.json().data.id}` });
    }
  });

  it('production sends nothing to an internal target stored earlier, and records why', async () => {
    const created = await development.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiver.url, kind: 'generic', types: ['info'] },
    });
    const id = created.json().data.id as number;
    // Only the production process may deliver this one.
    await development.close();
    await allowed.close();
    development = await createTestApp({ database, env: { ...fast, WEBHOOK_POLL_MS: '600000' } });
    allowed = await createTestApp({ database, env: { ...fast, WEBHOOK_POLL_MS: '600000' } });

    const test = await production.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    expect(test.json().data).toEqual({
      delivered: false,
      status: null,
      error: expect.stringMatching(/^refused/),
    });

    await production.api({
      method: 'POST',
      url: '/api/notifications',
      payload: { title: 't', message: 'm', type: 'info' },
    });
    for (let i = 0; i < 100; i++) {
      const log = (await production.api({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json()
        .data;
      if (log.length === 2) break;
      await sleep(20);
    }
    const log = (await production.api({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json().data;
    expect(log).toMatchObject([
      {
        attempt: 1,
        status: null,
        error: expect.stringMatching(/^refused/),
        notificationId: expect.any(Number),
      },
      { attempt: 1, status: null, error: expect.stringMatching(/^refused/), notificationId: null },
    ]);
    // A name that resolves to loopback is refused on the address the connection would use.
    const byName = await development.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiver.url.replace('127.0.0.1', 'localhost'), kind: 'slack' },
    });
    const named = await production.api({
      method: 'POST',
      url: `/api/webhooks/${byName.json().data.id}/test`,
    });
    expect(named.json().data).toEqual({
      delivered: false,
      status: null,
      error: expect.stringMatching(/^refused: target resolves to a private/),
    });
    await sleep(200);
    // Refused is final: no retry, and the receiver never saw a request.
    expect(
      (await production.api({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json().data,
    ).toHaveLength(2);
    expect(receiver.received).toEqual([]);
  });
});

describe('webhook configuration', () => {
  it('defaults to 1, 4 and 16 s retries and no private targets in production', () => {
    const config = testConfig({ NODE_ENV: 'production' });
    expect(config.webhooks).toEqual({
      allowPrivate: false,
      retryDelaysMs: [1000, 4000, 16_000],
      pollMs: 2000,
    });
    expect(
      testConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '10, 20' }).webhooks,
    ).toMatchObject({
      allowPrivate: true,
      retryDelaysMs: [10, 20],
    });
  });

  it('stops boot naming the variable on a bad value', () => {
    expect(() => testConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(() => testConfig({ WEBHOOK_RETRY_DELAYS_MS: '1s,4s' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => testConfig({ WEBHOOK_POLL_MS: '0' })).toThrow(/WEBHOOK_POLL_MS/);
  });
});
