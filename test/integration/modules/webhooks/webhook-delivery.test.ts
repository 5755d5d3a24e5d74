import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeWebhookReceiver,
  type ReceivedWebhook,
  startFakeWebhookReceiver,
} from '../../../fakes/fake-webhook-receiver.js';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';

const SECRET = 'receiver-shared-secret-123';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Retries after 50, 100 and 150 ms instead of 1, 4 and 16 s, so the suite stays fast.
const FAST = { WEBHOOK_RETRY_DELAYS_MS: '50,100,150', WEBHOOK_POLL_MS: '50', EXTERNAL_TIMEOUT_MS: '1000' };

const failure = {
  title: 'Checkout is failing',
  message: 'The last run of Checkout failed',
  type: 'e2e_failure',
  data: {
    appId: 7,
    appName: 'Checkout',
    runId: 812,
    failureCount: 2,
    failingSpecs: ['cart.cy.ts', 'pay.cy.ts'],
    lastFailureAuthor: 'Grace Hopper',
  },
};

function verifySignature(request: ReceivedWebhook, secret: string): boolean {
  const header = String(request.headers['x-dashboard-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

describe.each(DIALECTS)('webhook delivery (%s)', (dialect) => {
  let t: TestApp;
  let receiver: FakeWebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: FAST });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    receiver = await startFakeWebhookReceiver();
    for (const table of ['webhooks', 'webhook_jobs', 'webhook_deliveries', 'notifications'] as const) {
      await t.database.db.deleteFrom(table).execute();
    }
  });
  afterEach(async () => receiver.close());

  const addWebhook = async (body: Record<string, unknown>) => {
    const res = await t.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiver.url, ...body },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as number;
  };
  const notify = async (body: Record<string, unknown>) => {
    const res = await t.api({ method: 'POST', url: '/api/notifications', payload: body });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; createdAt: string };
  };
  const deliveries = async (id: number) =>
    (await t.api({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json().data as {
      notificationId: number | null;
      attempt: number;
      status: number | null;
      error: string | null;
      durationMs: number;
    }[];
  const webhook = async (id: number) =>
    (await t.api({ method: 'GET', url: `/api/webhooks/${id}` })).json().data;

  it('generic: the notification as JSON with event, delivery id and a signature the secret verifies', async () => {
    await addWebhook({ kind: 'generic', secret: SECRET });
    const created = await notify(failure);
    const [request] = await receiver.waitFor(1);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-dashboard-event']).toBe('e2e_failure');
    expect(request!.headers['x-dashboard-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(verifySignature(request!, SECRET)).toBe(true);
    expect(verifySignature(request!, 'another-secret-of-some-len')).toBe(false);
    expect(request!.body).toEqual({
      id: created.id,
      type: 'e2e_failure',
      title: failure.title,
      message: failure.message,
      data: failure.data,
      createdAt: created.createdAt,
    });
  });

  it('generic without a secret: no signature header', async () => {
    await addWebhook({ kind: 'generic' });
    await notify({ title: 'Heads up', message: 'Maintenance tonight', type: 'info' });
    const [request] = await receiver.waitFor(1);
    expect(request!.headers).not.toHaveProperty('x-dashboard-signature');
    expect(request!.body).toMatchObject({ type: 'info', data: null });
  });

  it('slack: text and blocks with a header, the message, the app and the failing specs', async () => {
    await addWebhook({ kind: 'slack' });
    await notify(failure);
    const [request] = await receiver.waitFor(1);
    const body = request!.body as {
      text: string;
      blocks: { type: string; text?: { type: string; text: string } }[];
    };
    expect(body.text).toContain(failure.title);
    expect(body.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: failure.title } });
    expect(body.blocks[1]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: failure.message } });
    const rendered = JSON.stringify(body.blocks);
    expect(rendered).toContain('Checkout');
    expect(rendered).toContain('#812');
    expect(rendered).toContain('cart.cy.ts');
    expect(rendered).toContain('pay.cy.ts');
    expect(rendered).toContain('Grace Hopper');
    expect(request!.headers).not.toHaveProperty('x-dashboard-signature');
  });

  it('slack: markup characters in the message are escaped', async () => {
    await addWebhook({ kind: 'slack' });
    await notify({ title: 'PR <merged>', message: 'a < b & <!channel>', type: 'pr_update' });
    const [request] = await receiver.waitFor(1);
    const body = request!.body as { blocks: { text?: { text: string } }[] };
    expect(body.blocks[1]!.text!.text).toBe('a &lt; b &amp; &lt;!channel&gt;');
  });

  it('teams: an Adaptive Card a Teams workflow posts, with title, message and the E2E facts and specs', async () => {
    const teams = await startFakeWebhookReceiver({ protocol: 'teams-workflow' });
    try {
      const id = await addWebhook({ kind: 'teams', url: teams.url });
      await notify(failure);
      const [request] = await teams.waitFor(1);
      expect(request!.problems).toEqual([]);
      const [attachment] = (
        request!.body as { attachments: { content: { body: Record<string, unknown>[] } }[] }
      ).attachments;
      const body = attachment!.content.body;
      expect(body.slice(0, 3)).toEqual([
        {
          type: 'TextBlock',
          text: failure.title,
          wrap: true,
          weight: 'bolder',
          size: 'medium',
          color: 'attention',
        },
        { type: 'TextBlock', text: failure.message, wrap: true },
        {
          type: 'FactSet',
          facts: [
            { title: 'App', value: 'Checkout' },
            { title: 'Run', value: '#812' },
            { title: 'Last commit by', value: 'Grace Hopper' },
          ],
        },
      ]);
      expect(body.slice(3)).toEqual([
        { type: 'TextBlock', text: 'Failing specs (2)', wrap: true, weight: 'bolder' },
        { type: 'TextBlock', text: 'cart.cy.ts', wrap: true },
        { type: 'TextBlock', text: 'pay.cy.ts', wrap: true },
      ]);
      // Workflows answer 202 Accepted: the delivery counts as made.
      await expect.poll(async () => (await webhook(id)).lastStatus).toBe(202);
      expect(await webhook(id)).toMatchObject({ lastError: null });
    } finally {
      await teams.close();
    }
  });

  it('only types a webhook subscribed to are delivered to it', async () => {
    await addWebhook({ kind: 'generic', types: ['pr_update'] });
    await notify({ title: 'Checkout added', message: 'New app', type: 'app_update' });
    await notify({ title: 'PR 12 merged', message: 'Merged', type: 'pr_update' });
    const [request] = await receiver.waitFor(1);
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
    expect(request!.body).toMatchObject({ type: 'pr_update', title: 'PR 12 merged' });
  });

  it('a 500 is retried and the 200 that follows is recorded; the delivery id stays the same', async () => {
    const id = await addWebhook({ kind: 'generic' });
    receiver.script = [{ status: 500 }];
    const created = await notify(failure);
    const [first, second] = await receiver.waitFor(2);
    expect(second!.headers['x-dashboard-delivery']).toBe(first!.headers['x-dashboard-delivery']);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(45);
    await sleep(300);
    expect(receiver.received).toHaveLength(2);
    const log = await deliveries(id);
    expect(
      log.map(({ notificationId, attempt, status, error }) => ({ notificationId, attempt, status, error })),
    ).toEqual([
      { notificationId: created.id, attempt: 2, status: 200, error: null },
      { notificationId: created.id, attempt: 1, status: 500, error: 'HTTP 500' },
    ]);
    expect(await webhook(id)).toMatchObject({
      lastStatus: 200,
      lastError: null,
      lastDeliveryAt: expect.any(String),
    });
  });

  it('a 404 is not retried', async () => {
    const id = await addWebhook({ kind: 'slack' });
    receiver.status = 404;
    await notify(failure);
    await receiver.waitFor(1);
    await sleep(500);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(id)).map((entry) => entry.status)).toEqual([404]);
    expect(await webhook(id)).toMatchObject({ lastStatus: 404, lastError: 'HTTP 404' });
  });

  it('5xx every time: the first attempt and 3 retries, then it gives up', async () => {
    const id = await addWebhook({ kind: 'generic' });
    receiver.status = 503;
    await notify(failure);
    await receiver.waitFor(4);
    await sleep(500);
    expect(receiver.received).toHaveLength(4);
    expect((await deliveries(id)).map((entry) => entry.attempt)).toEqual([4, 3, 2, 1]);
    const pending = await t.database.db.selectFrom('webhook_jobs').selectAll().execute();
    expect(pending).toEqual([]);
  });

  it('a 429 with Retry-After waits that long, although the configured delay is shorter', async () => {
    await addWebhook({ kind: 'generic' });
    receiver.script = [{ status: 429, headers: { 'retry-after': '1' } }];
    await notify(failure);
    const [first, second] = await receiver.waitFor(2, 5000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('a connection error is retried (the receiver is down, then back)', async () => {
    const id = await addWebhook({ kind: 'generic' });
    await receiver.close();
    await notify(failure);
    await sleep(120);
    const log = await deliveries(id);
    expect(log.length).toBeGreaterThanOrEqual(1);
    expect(log.at(-1)).toMatchObject({ status: null, error: expect.stringContaining('connection failed') });
  });

  it('POST /webhooks/:id/test sends one system message, once, without a notification row', async () => {
    const id = await addWebhook({ kind: 'generic', secret: SECRET });
    const res = await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { delivered: true, status: 200, error: null } });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toMatchObject({ id: null, type: 'system' });
    expect(verifySignature(receiver.received[0]!, SECRET)).toBe(true);
    expect(await t.database.db.selectFrom('notifications').selectAll().execute()).toEqual([]);
    expect(await deliveries(id)).toMatchObject([{ notificationId: null, attempt: 1, status: 200 }]);

    receiver.status = 500;
    const failed = await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    expect(failed.json().data).toEqual({ delivered: false, status: 500, error: 'HTTP 500' });
    await sleep(300);
    expect(receiver.received).toHaveLength(2);
    expect(await webhook(id)).toMatchObject({ lastStatus: 500, lastError: 'HTTP 500' });
  });

  it('keeps only the last 50 attempts, newest first', async () => {
    const id = await addWebhook({ kind: 'generic', types: ['info'] });
    for (let i = 0; i < 53; i++) await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    const log = await deliveries(id);
    expect(log).toHaveLength(50);
    const ids = log.map((entry) => (entry as unknown as { id: number }).id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });
});
