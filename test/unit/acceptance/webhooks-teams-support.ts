import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  type FakeWebhookReceiver,
  type ReceivedWebhook,
  startFakeWebhookReceiver,
} from '../../fakes/fake-webhook-receiver.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import type { Json } from '../../support/acceptance-support.js';

const FAST = { WEBHOOK_RETRY_DELAYS_MS: '40,40,40', WEBHOOK_POLL_MS: '40' };

interface TextBlock {
  type: 'TextBlock';
  text: string;
  [key: string]: unknown;
}
export const cardOf = (request: ReceivedWebhook) =>
  (request.body as Json).attachments[0].content as {
    body: (TextBlock | { type: 'FactSet'; facts: { title: string; value: string }[] })[];
    actions: Json[];
  };
export const texts = (request: ReceivedWebhook) =>
  cardOf(request).body.flatMap((element) =>
    element.type === 'TextBlock' ? [element.text] : element.facts.map((fact) => fact.value),
  );

/**
 * The Teams webhook suites' set-up: one test app with fast webhook retries, and for each test a
 * fresh fake Teams workflow and empty webhook and notification tables. `suite` is filled in by
 * the hooks, so read it only inside hooks and tests.
 */
export function teamsSuite() {
  const suite = {} as { t: TestApp; workflow: FakeWebhookReceiver };
  beforeAll(async () => {
    suite.t = await createTestApp({ env: FAST });
  });
  afterAll(async () => suite.t.close());
  beforeEach(async () => {
    suite.workflow = await startFakeWebhookReceiver({ protocol: 'teams-workflow' });
    for (const table of ['webhooks', 'webhook_jobs', 'webhook_deliveries', 'notifications'] as const) {
      await suite.t.database.db.deleteFrom(table).execute();
    }
  });
  afterEach(async () => suite.workflow.close());

  const addTeams = async () => {
    const response = await suite.t.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: suite.workflow.url, kind: 'teams' },
    });
    expect(response.statusCode).toBe(201);
    return response.json<Json>().data.id as number;
  };
  /** Creates the notification and returns what the workflow received, checked as Teams would. */
  const deliver = async (payload: Json) => {
    const response = await suite.t.api({ method: 'POST', url: '/api/notifications', payload });
    expect(response.statusCode, response.body).toBe(201);
    const [request] = await suite.workflow.waitFor(1);
    expect(request!.problems).toEqual([]);
    return request!;
  };
  return { suite, addTeams, deliver };
}
