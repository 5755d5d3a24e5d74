import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeWebhookReceiver, startFakeWebhookReceiver } from '../../fakes/fake-webhook-receiver.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { ISO_TIMESTAMP, type Json } from '../../support/acceptance-support.js';

const SECRET = 'acceptance-signing-secret';
const DELIVERY_FIELDS = ['at', 'attempt', 'durationMs', 'error', 'id', 'notificationId', 'status'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// "Send test", the delivery log and the generic format, seen by a real receiver over HTTP.
describe('acceptance: webhook test message and deliveries', () => {
  let t: TestApp;
  let receiver: FakeWebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_RETRY_DELAYS_MS: '40,40,40', WEBHOOK_POLL_MS: '40' } });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    receiver = await startFakeWebhookReceiver();
  });
  afterEach(async () => receiver.close());

  const addGeneric = async (extra: object = {}) => {
    const response = await t.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiver.url, kind: 'generic', secret: SECRET, ...extra },
    });
    expect(response.statusCode).toBe(201);
    return response.json<Json>().data.id as number;
  };
  const notificationCount = async () =>
    (await t.database.db.selectFrom('notifications').select('id').execute()).length;

  it('POST /:id/test sends one signed system message and answers {delivered, status, error}', async () => {
    const id = await addGeneric({ types: ['e2e_failure'] });
    const before = await notificationCount();
    const response = await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    expect(response.statusCode).toBe(200);
    expect(response.json<Json>()).toEqual({
      success: true,
      data: { delivered: true, status: 200, error: null },
    });
    const [request] = await receiver.waitFor(1);
    expect(request!.headers['x-dashboard-event']).toBe('system');
    expect(request!.headers['x-dashboard-delivery']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const expected = `sha256=${createHmac('sha256', SECRET).update(request!.rawBody).digest('hex')}`;
    expect(request!.headers['x-dashboard-signature']).toBe(expected);
    expect(Object.keys(request!.body as Json).sort()).toEqual([
      'createdAt',
      'data',
      'id',
      'message',
      'title',
      'type',
    ]);
    expect(request!.body).toMatchObject({ type: 'system' });
    expect(await notificationCount()).toBe(before);

    const webhook = (await t.api({ method: 'GET', url: `/api/webhooks/${id}` })).json<Json>().data;
    expect(webhook).toMatchObject({
      lastStatus: 200,
      lastError: null,
      lastDeliveryAt: expect.stringMatching(ISO_TIMESTAMP),
    });
  });

  it('a failing test message is tried once only, and reported as not delivered', async () => {
    const id = await addGeneric();
    receiver.status = 503;
    const response = await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    expect(response.json<Json>()).toEqual({
      success: true,
      data: { delivered: false, status: 503, error: expect.any(String) },
    });
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
    const unreachable = await t.api({
      method: 'PUT',
      url: `/api/webhooks/${id}`,
      payload: { url: 'http://127.0.0.1:9/closed-port' },
    });
    expect(unreachable.statusCode).toBe(200);
    const refused = (await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` })).json<Json>().data;
    expect(refused).toEqual({ delivered: false, status: null, error: expect.any(String) });
  });

  it('GET /:id/deliveries lists attempts newest first with exactly the documented fields', async () => {
    const id = await addGeneric({ types: ['info'] });
    receiver.script = [{ status: 500 }, { status: 200 }];
    const created = await t.api({
      method: 'POST',
      url: '/api/notifications',
      payload: { type: 'info', title: 'Heads up', message: 'Maintenance' },
    });
    const notificationId = created.json<Json>().data.id as number;
    await receiver.waitFor(2);
    let deliveries: Json[] = [];
    for (let tries = 0; tries < 100 && deliveries.length < 2; tries += 1) {
      deliveries = (await t.api({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json<Json>()
        .data as Json[];
      if (deliveries.length < 2) await sleep(20);
    }
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      expect(Object.keys(delivery).sort()).toEqual(DELIVERY_FIELDS);
      expect(delivery.at).toMatch(ISO_TIMESTAMP);
      expect(Number.isInteger(delivery.durationMs)).toBe(true);
    }
    expect(deliveries[0]).toMatchObject({ notificationId, attempt: 2, status: 200, error: null });
    expect(deliveries[1]).toMatchObject({
      notificationId,
      attempt: 1,
      status: 500,
      error: expect.any(String),
    });
    // One delivery: the same delivery id on both attempts.
    expect(receiver.received[0]!.headers['x-dashboard-delivery']).toBe(
      receiver.received[1]!.headers['x-dashboard-delivery'],
    );
  });
});
