import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeWebhookReceiver, teamsWorkflowProblems } from '../../fakes/fake-webhook-receiver.js';
import type { TestApp } from '../../support/test-app.js';
import type { Json } from '../../support/acceptance-support.js';
import { cardOf, teamsSuite, texts } from './webhooks-teams-support.js';

// Teams webhooks as a Teams workflow receives them: the Adaptive Card envelope, its actions, colours.
describe('acceptance: Teams webhooks post Adaptive Cards a Teams workflow accepts: the card', () => {
  const { suite, addTeams, deliver } = teamsSuite();
  let t: TestApp;
  let workflow: FakeWebhookReceiver;
  beforeEach(() => {
    ({ t, workflow } = suite);
  });

  it('sends exactly the envelope, a card of an E2E failure with suspects and a quarantined spec, delivered on 202', async () => {
    const id = await addTeams();
    const request = await deliver({
      type: 'e2e_failure',
      title: 'E2E tests failing: shop',
      message: 'Run #12 of shop failed (2 failed of 5 runs in the window).',
      data: {
        appId: 3,
        appName: 'shop',
        runId: 12,
        lastFailureAuthor: 'Grace Hopper',
        failingSpecs: ['login.cy.ts', 'cart.cy.ts'],
        quarantinedFailingSpecs: ['flaky.cy.ts'],
        failingSpecDetails: [
          {
            spec: 'login.cy.ts',
            runUrl: 'https://cloud.cypress.io/projects/shop/runs/12',
            error: 'Timed out retrying after 4000ms',
            suspects: [
              {
                number: 412,
                title: 'Checkout',
                url: 'https://github.com/acme/shop/pull/412',
                author: 'alice',
              },
              { number: 415, title: 'Login', url: 'https://github.com/acme/shop/pull/415', author: 'bob' },
            ],
          },
          { spec: 'cart.cy.ts', runUrl: null, error: null, suspects: [] },
        ],
        link: 'https://dashboard.example.com/reports/2026-05-14/3',
      },
    });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                text: 'E2E tests failing: shop',
                weight: 'bolder',
                size: 'medium',
                wrap: true,
                color: 'attention',
              },
              {
                type: 'TextBlock',
                text: 'Run #12 of shop failed \\(2 failed of 5 runs in the window\\).',
                wrap: true,
              },
              {
                type: 'FactSet',
                facts: [
                  { title: 'App', value: 'shop' },
                  { title: 'Run', value: '#12' },
                  { title: 'Last commit by', value: 'Grace Hopper' },
                ],
              },
              { type: 'TextBlock', text: 'Failing specs (2)', weight: 'bolder', wrap: true },
              {
                type: 'TextBlock',
                text: 'login.cy.ts — Timed out retrying after 4000ms — suspects #412 by alice, #415 by bob ([run](https://cloud.cypress.io/projects/shop/runs/12))',
                wrap: true,
              },
              { type: 'TextBlock', text: 'cart.cy.ts', wrap: true },
              {
                type: 'TextBlock',
                text: 'Quarantined (known failures, not alerted): flaky.cy.ts',
                isSubtle: true,
                wrap: true,
              },
            ],
            actions: [
              {
                type: 'Action.OpenUrl',
                title: 'Open',
                url: 'https://dashboard.example.com/reports/2026-05-14/3',
              },
            ],
          },
        },
      ],
    });
    await expect
      .poll(async () => (await t.api({ method: 'GET', url: `/api/webhooks/${id}` })).json<Json>().data)
      .toMatchObject({ lastStatus: 202, lastError: null });
  });

  it('gives the "Open" action only for an http(s) link', async () => {
    await addTeams();
    const links = [
      'javascript:alert(1)',
      'ftp://example.com/x',
      '/reports/1',
      'https://',
      'data:text/html,x',
    ];
    for (const [index, link] of links.entries()) {
      await t.api({
        method: 'POST',
        url: '/api/notifications',
        payload: { type: 'info', title: `Link ${index}`, message: 'Look', data: { link } },
      });
    }
    await t.api({
      method: 'POST',
      url: '/api/notifications',
      payload: { type: 'info', title: 'Plain', message: 'Look', data: { link: 'http://example.com/a b' } },
    });
    const received = await workflow.waitFor(links.length + 1);
    const byTitle = new Map(received.map((request) => [texts(request)[0], cardOf(request).actions]));
    for (const index of links.keys()) expect(byTitle.get(`Link ${index}`)).toEqual([]);
    expect(byTitle.get('Plain')).toEqual([
      { type: 'Action.OpenUrl', title: 'Open', url: 'http://example.com/a%20b' },
    ]);
    expect(received.flatMap((request) => request.problems)).toEqual([]);
  });

  it('colours the title by type: good for a success, attention for a failure', async () => {
    await addTeams();
    const request = await deliver({
      type: 'e2e_success',
      title: 'E2E tests passing again: shop',
      message: 'Run #13 of shop passed after a failing run.',
      data: { appId: 3, appName: 'shop', runId: 13, failureCount: 0 },
    });
    const card = cardOf(request);
    expect(card.body[0]).toMatchObject({ type: 'TextBlock', color: 'good', weight: 'bolder' });
    expect(card.body.slice(2)).toEqual([
      {
        type: 'FactSet',
        facts: [
          { title: 'App', value: 'shop' },
          { title: 'Run', value: '#13' },
        ],
      },
    ]);
    expect(card.actions).toEqual([]);
  });

  it('"Send test" posts a valid card and counts the 202 of a workflow as delivered', async () => {
    const id = await addTeams();
    const response = await t.api({ method: 'POST', url: `/api/webhooks/${id}/test` });
    expect(response.json<Json>()).toEqual({
      success: true,
      data: { delivered: true, status: 202, error: null },
    });
    const [request] = await workflow.waitFor(1);
    expect(request!.problems).toEqual([]);
    expect(cardOf(request!).body[0]).toMatchObject({ type: 'TextBlock', color: 'warning' });
  });

  it('the fake workflow refuses what Teams would not post: the old MessageCard, a wrong card, 28 KB', () => {
    const messageCard = { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', text: 'x' };
    expect(teamsWorkflowProblems(JSON.stringify(messageCard))).not.toEqual([]);
    const card = (content: Json) =>
      JSON.stringify({
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }],
      });
    const valid = {
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [{ type: 'TextBlock', text: 'hi', wrap: true }],
      actions: [],
    };
    expect(teamsWorkflowProblems(card(valid))).toEqual([]);
    expect(teamsWorkflowProblems(card({ ...valid, version: '1.2' }))).not.toEqual([]);
    expect(
      teamsWorkflowProblems(
        card({ ...valid, body: [{ type: 'TextBlock', text: 'hi', wrap: true, size: 'huge' }] }),
      ),
    ).not.toEqual([]);
    expect(
      teamsWorkflowProblems(
        card({ ...valid, actions: [{ type: 'Action.OpenUrl', title: 'Open', url: 'javascript:x' }] }),
      ),
    ).not.toEqual([]);
    const huge = { ...valid, body: [{ type: 'TextBlock', text: 'x'.repeat(28_000), wrap: true }] };
    expect(teamsWorkflowProblems(card(huge))).toEqual([expect.stringContaining('28 KB')]);
  });
});
