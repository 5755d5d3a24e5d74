import { describe, expect, it } from 'vitest';
import { formatWebhook, type WebhookEvent } from '../../../src/modules/webhooks/webhook-payloads.js';

const event = (data: Record<string, unknown>): WebhookEvent => ({
  id: 7,
  type: 'e2e_failure',
  title: 'E2E tests failing: checkout',
  message: 'Run #12 of checkout failed.',
  data: { appId: 1, appName: 'checkout', runId: 12, failingSpecs: ['login.cy.ts', 'cart.cy.ts'], ...data },
  createdAt: '2026-05-14T10:00:00.000Z',
});

const details = [
  {
    spec: 'login.cy.ts',
    runUrl: 'https://cloud.cypress.io/projects/shop/runs/12',
    error: 'Timed out retrying after 4000ms',
    suspects: [
      {
        number: 412,
        title: 'Checkout rewrite',
        url: 'https://github.com/acme/shop/pull/412',
        author: 'alice',
      },
    ],
  },
  { spec: 'cart.cy.ts', runUrl: null, error: null, suspects: [] },
];

describe('failure alerts in Slack and Teams say why each spec fails', () => {
  it('shows one line per failing spec with its error, suspects and run link in Slack', () => {
    const body = JSON.parse(formatWebhook('slack', event({ failingSpecDetails: details }), 'd1', null).body);
    const text = JSON.stringify(body.blocks);
    expect(text).toContain(
      '• checkout: login.cy.ts — Timed out retrying after 4000ms — suspects #412 by alice (<https://cloud.cypress.io/projects/shop/runs/12|run>)',
    );
    expect(text).toContain('• checkout: cart.cy.ts"');
  });

  const teamsBody = (data: Record<string, unknown>) =>
    JSON.parse(formatWebhook('teams', event(data), 'd1', null).body).attachments[0].content.body as {
      text?: string;
    }[];

  it('shows one wrapped TextBlock per failing spec with the same error, suspects and run link in Teams', () => {
    const texts = teamsBody({ failingSpecDetails: details }).map((element) => element.text);
    expect(texts.slice(-3)).toEqual([
      'Failing specs (2)',
      'login.cy.ts — Timed out retrying after 4000ms — suspects #412 by alice ([run](https://cloud.cypress.io/projects/shop/runs/12))',
      'cart.cy.ts',
    ]);
  });

  it('keeps the plain list when the alert carries no details, and the generic body unchanged', () => {
    expect(
      teamsBody({})
        .map((element) => element.text)
        .slice(-2),
    ).toEqual(['login.cy.ts', 'cart.cy.ts']);
    const generic = JSON.parse(
      formatWebhook('generic', event({ failingSpecDetails: details }), 'd1', null).body,
    );
    expect(generic.data.failingSpecDetails).toEqual(details);
  });
});
