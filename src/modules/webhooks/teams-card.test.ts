import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { cardText } from './teams-card.js';

// A CommonMark renderer with HTML, tables and strike-through on reads more than Teams does: text
// that stays literal here stays literal in a card.
const markdown = new MarkdownIt({ html: true, linkify: false });
const FORMATTING = /<(a|strong|em|s|del|code|pre|ul|ol|li|h[1-6]|blockquote|hr|table|img|at|b|br)[\s>/]/i;
const shown = (html: string) =>
  html
    .replace(/<\/?p>\n?/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trimEnd();

describe('cardText: upload text is literal in an Adaptive Card TextBlock', () => {
  it.each([
    ['emphasis', '**bold** __b__ *i* _i_ ~~gone~~ a_b_c'],
    ['links and images', '[x](http://evil) ![img](http://evil/i.png) <http://evil> [ref]: http://evil'],
    ['HTML, mentions and entities', '<b>hi</b> <at>all</at> <img src=x onerror=alert(1)> &lt; &#42; &amp;'],
    ['code', '`code` ``x`` ```js'],
    ['headings', '# h\n## h2\nTitle\n===\nOther\n---'],
    ['lists', '- item\n+ item\n* item\n1. one\n2) two\n-x +y'],
    ['quotes, rules and tables', '> quote\n***\n___\n| a | b |\n|---|---|'],
    ['indented code', '    code\n\tcode'],
    ['card functions', '{{DATE(2026-05-14T06:00:00Z, SHORT)}} {{TIME(2026-05-14T06:00:00Z)}}'],
    ['backslashes', 'a\\*b\\ c\\\\'],
  ])('%s', (_label, raw) => {
    const html = markdown.render(cardText(raw, true));
    expect(html).not.toMatch(FORMATTING);
    const lines = raw.split('\n').map((line) => line.replace(/^[ \t]+/, ''));
    expect(shown(html)).toBe(lines.join('\n'));
  });

  it('keeps one line where the field holds one: newlines and control characters become spaces', () => {
    expect(cardText('a\nb\r\nc\u0000d\u2028e')).toBe('a b  c d e');
    expect(cardText('a\r\nb\u0007c', true)).toBe('a\nb c');
  });

  it('keeps the card from reading {{DATE()}} and {{TIME()}} functions in upload text', () => {
    const escaped = cardText('{{DATE(2026-05-14T06:00:00Z, SHORT)}} {{TIME(2026-05-14T06:00:00Z)}}');
    expect(escaped).not.toMatch(/\{\{(DATE|TIME)\(/);
  });

  it('leaves plain text alone', () => {
    const plain = 'checkout/login.cy.ts: Timed out retrying after 4000ms, expected 3 to equal 4.';
    expect(cardText(plain)).toBe(plain);
  });
});
