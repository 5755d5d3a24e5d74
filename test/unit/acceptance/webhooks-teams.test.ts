import MarkdownIt from 'markdown-it';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeWebhookReceiver,
  type ReceivedWebhook,
  startFakeWebhookReceiver,
  TEAMS_MESSAGE_LIMIT_BYTES,
  teamsWorkflowProblems,
} from '../../fakes/fake-webhook-receiver.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import type { Json } from '../../support/acceptance-support.js';

const HOSTILE = '**bold** [x](http://evil) <at>all</at> <b>hi</b> _a_ # h - item';
const FAST = { WEBHOOK_RETRY_DELAYS_MS: '40,40,40', WEBHOOK_POLL_MS: '40' };

/** A CommonMark renderer with HTML and strike-through on: more than Teams reads, so a stricter check. */
const markdown = new MarkdownIt({ html: true, linkify: false });
const FORMATTING = /<(a|strong|em|s|del|code|pre|ul|ol|li|h[1-6]|blockquote|hr|table|img|at|b)[\s>/]/i;
/** What a reader sees of a text: its rendering with the paragraph tags and entities undone. */
const rendered = (text: string) =>
  markdown
    .render(text)
    .replace(/<\/?p>|<br>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

interface TextBlock {
  type: 'TextBlock';
  text: string;
  [key: string]: unknown;
}
const cardOf = (request: ReceivedWebhook) =>
  (request.body as Json).attachments[0].content as {
    body: (TextBlock | { type: 'FactSet'; facts: { title: string; value: string }[] })[];
    actions: Json[];
  };
const texts = (request: ReceivedWebhook) =>
  cardOf(request).body.flatMap((element) =>
    element.type === 'TextBlock' ? [element.text] : element.facts.map((fact) => fact.value),
  );

// Teams webhooks as a Teams workflow receives them: the Adaptive Card envelope, escaped text, size.
describe('acceptance: Teams webhooks post Adaptive Cards a Teams workflow accepts', () => {
  let t: TestApp;
  let workflow: FakeWebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ env: FAST });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    workflow = await startFakeWebhookReceiver({ protocol: 'teams-workflow' });
    for (const table of ['webhooks', 'webhook_jobs', 'webhook_deliveries', 'notifications'] as const) {
      await t.database.db.deleteFrom(table).execute();
    }
  });
  afterEach(async () => workflow.close());

  const addTeams = async () => {
    const response = await t.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: workflow.url, kind: 'teams' },
    });
    expect(response.statusCode).toBe(201);
    return response.json<Json>().data.id as number;
  };
  /** Creates the notification and returns what the workflow received, checked as Teams would. */
  const deliver = async (payload: Json) => {
    const response = await t.api({ method: 'POST', url: '/api/notifications', payload });
    expect(response.statusCode, response.body).toBe(201);
    const [request] = await workflow.waitFor(1);
    expect(request!.problems).toEqual([]);
    return request!;
  };

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

  it('a test name full of Markdown and HTML arrives as literal text wherever it is shown', async () => {
    await addTeams();
    const request = await deliver({
      type: 'e2e_failure',
      title: `E2E tests failing: ${HOSTILE}`,
      message: `${HOSTILE}\n# h\n- item\n1. one\n> quote\n    code\n---\n{{DATE(2026-05-14T06:00:00Z, SHORT)}} &lt; a\\*b`,
      data: {
        appName: HOSTILE,
        runId: HOSTILE,
        lastFailureAuthor: HOSTILE,
        failingSpecs: [HOSTILE],
        quarantinedFailingSpecs: [HOSTILE],
        failingSpecDetails: [{ spec: HOSTILE, error: HOSTILE, suspects: [{ number: 1, author: HOSTILE }] }],
      },
    });
    const shown = texts(request);
    for (const text of shown) expect(markdown.render(text), text).not.toMatch(FORMATTING);
    expect(shown.map(rendered)).toEqual([
      `E2E tests failing: ${HOSTILE}`,
      [
        HOSTILE,
        '# h',
        '- item',
        '1. one',
        '> quote',
        'code',
        '---',
        '{{DATE(2026-05-14T06:00:00Z, SHORT)}} &lt; a\\*b',
      ].join('\n'),
      HOSTILE,
      `#${HOSTILE}`,
      HOSTILE,
      'Failing specs (1)',
      `${HOSTILE} — ${HOSTILE} — suspects #1 by ${HOSTILE}`,
      `Quarantined (known failures, not alerted): ${HOSTILE}`,
    ]);
    // No mention can exist without the msteams entities, which the card never carries.
    expect(request.rawBody).not.toContain('msteams');
  });

  it('a 30-spec failure stays under 28 KB, naming 10 specs and "and 20 more"', async () => {
    await addTeams();
    const specs = Array.from({ length: 30 }, (_, index) => `checkout/flow-${index + 1}.cy.ts`);
    const request = await deliver({
      type: 'e2e_failure',
      title: 'E2E tests failing: shop',
      message: 'Run #40 of shop failed.',
      data: {
        appName: 'shop',
        runId: 40,
        failingSpecs: specs,
        failingSpecDetails: specs.map((spec) => ({
          spec,
          runUrl: 'https://cloud.cypress.io/projects/shop/runs/40',
          error: `AssertionError: expected ${'x'.repeat(250)} to equal y`,
          suspects: [{ number: 7, author: 'alice' }],
        })),
      },
    });
    expect(Buffer.byteLength(request.rawBody)).toBeLessThan(TEAMS_MESSAGE_LIMIT_BYTES);
    const shown = texts(request);
    expect(shown).toContain('Failing specs (30)');
    expect(shown.filter((text) => text.startsWith('checkout/flow-'))).toHaveLength(10);
    expect(shown.at(-1)).toBe('and 20 more');
  });

  it('cuts the lists, never the JSON, when every field is as long and as costly as it may be', async () => {
    await addTeams();
    const costly = (length: number) => '\\'.repeat(length);
    const specs = Array.from({ length: 30 }, (_, index) => `${index}${costly(1000)}`);
    const request = await deliver({
      type: 'e2e_failure',
      title: costly(255),
      message: costly(4000),
      data: {
        appName: costly(500),
        runId: costly(500),
        lastFailureAuthor: costly(500),
        failingSpecs: specs,
        quarantinedFailingSpecs: specs,
        failingSpecDetails: specs.map((spec) => ({
          spec,
          runUrl: `https://ci.example.com/${'r'.repeat(1900)}`,
          error: costly(1000),
          suspects: Array.from({ length: 9 }, (_, number) => ({ number, author: costly(200) })),
        })),
        link: `https://dashboard.example.com/${'p'.repeat(1900)}`,
      },
    });
    expect(Buffer.byteLength(request.rawBody)).toBeLessThan(TEAMS_MESSAGE_LIMIT_BYTES);
    const shown = texts(request);
    expect(shown[1]).toBe(costly(8000)); // the whole message, every backslash escaped
    expect(shown).toContain('Failing specs (30)');
    expect(shown.some((text) => /^and \d+ more$/.test(text))).toBe(true);
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
