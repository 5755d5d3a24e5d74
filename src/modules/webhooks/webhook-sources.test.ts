import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from '../../../test/fakes/fake-webhook-receiver.js';
import { type ReportHarness, specRow, startReportHarness } from '../../../test/support/report-harness.js';

/**
 * Notifications that no HTTP request creates: the report worker's `e2e_failure` (stored by the
 * worker's own notifications module) reaches a Slack webhook, sent by the API's dispatcher.
 */
describe('webhooks for notifications created by the report worker', () => {
  let harness: ReportHarness;
  let receiver: FakeWebhookReceiver;

  beforeAll(async () => {
    receiver = await startFakeWebhookReceiver();
    harness = await startReportHarness({ env: { WEBHOOK_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await harness.close();
    await receiver.close();
  });

  it('posts the e2e_failure of a ready report to Slack with the app and the failing spec', async () => {
    const created = await harness.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiver.url, kind: 'slack', types: ['e2e_failure'] },
    });
    expect(created.statusCode).toBe(201);
    await harness.createApp('storefront');
    harness.fake.rows = [
      specRow('storefront', 1),
      specRow('storefront', 2, {
        status: 'failed',
        spec: 'checkout.cy.ts',
        pass_tests: 2,
        fail_tests: 2,
        created_at: '2025-03-10T12:00:00.000Z',
      }),
    ];
    await harness.waitForReport('2025-03-10');

    const [request] = await receiver.waitFor(1, 10_000);
    const rendered = JSON.stringify(request!.body);
    expect(rendered).toContain('storefront');
    expect(rendered).toContain('checkout.cy.ts');
    const stored = await harness.database.db.selectFrom('notifications').selectAll().execute();
    const failure = stored.find((row) => row.type === 'e2e_failure');
    expect(failure).toBeDefined();
    expect((request!.body as { blocks: { text?: { text: string } }[] }).blocks[0]!.text!.text).toBe(
      failure!.title.slice(0, 150),
    );
    // The app_update of the app created above is not among this webhook's types.
    expect(receiver.received).toHaveLength(1);
  });
});
