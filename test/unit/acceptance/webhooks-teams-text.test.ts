import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { TEAMS_MESSAGE_LIMIT_BYTES } from '../../fakes/fake-webhook-receiver.js';
import { teamsSuite, texts } from './webhooks-teams-support.js';

const HOSTILE = '**bold** [x](http://evil) <at>all</at> <b>hi</b> _a_ # h - item';

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

// Teams webhooks as a Teams workflow receives them: escaped text, and a size Teams accepts.
describe('acceptance: Teams webhooks post Adaptive Cards a Teams workflow accepts: text and size', () => {
  const { addTeams, deliver } = teamsSuite();

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
});
