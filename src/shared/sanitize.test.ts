import { createRequire } from 'node:module';
import { decodeHTML } from 'entities';
import type sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { escapeHtml, stripTags } from './sanitize.js';

// The oracle: what stripTags returned when it called sanitize-html with no tag allowed. It stays
// a dev dependency for this comparison only.
const sanitize = createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
const throughSanitizer = (input: string) =>
  decodeHTML(
    sanitize(decodeHTML(input), { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' }),
  );

/** A small seeded generator, so a failing input can be reproduced from the test's output. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

// Every element with special parsing (raw text, RCDATA, foreign content, implied closes) is here.
const TAGS = (
  'b i p br a div li ul img table td tr select svg math title noscript iframe plaintext html body ' +
  'head template hr input script style textarea option xmp SCRIPT OpTiOn foreignObject xmp:x'
).split(' ');
const ATTRIBUTES = [
  '',
  ' href="x"',
  " title='a > b'",
  ' data-x=1',
  ' disabled',
  ' a="&lt;b&gt;"',
  ' x=<y>',
  ' =z',
  ' src="javascript:alert(1)"',
  ' style="color:red"',
  ' "q"',
  " a='\"'",
];
const TEXT = [
  'hello',
  ' ',
  'a < b',
  'x > y',
  '&',
  '&amp;',
  '&amp;lt;b&amp;gt;',
  '&lt;script&gt;',
  '&#60;i&#62;',
  '&#x3c;',
  '&notin;',
  '&not',
  '&ampx',
  '&#0;',
  '&#xD800;',
  '&unknown;',
  'é',
  '漢字',
  '🎉',
  '\u0000',
  '\u200b',
  'a\r\nb',
  '\t',
  '<',
  '>',
  '</',
  '<!',
  '<?',
  '&#',
  "'",
  '"',
  '=',
  '/',
  ']]>',
  '-->',
];
const MARKUP = [
  '<!-- comment -->',
  '<!--',
  '<!-- <b> -->',
  '<![CDATA[x<y]]>',
  '<![CDATA[',
  '<!DOCTYPE html>',
  '<?xml version="1.0"?>',
  '< b>',
  '<b',
  '</b',
  '<//b>',
  '</>',
  '<>',
  '<3',
  '</ p>',
  '</br>',
  '</p>',
  '<b/>',
  '<script/>',
  '<p/ >',
  '<a <b>>',
  '<<b>>',
];

function generate(seed: number): string {
  const { next, pick } = random(seed);
  let html = '';
  const parts = 1 + Math.floor(next() * 12);
  for (let i = 0; i < parts; i++) {
    const roll = next();
    const tag = pick(TAGS);
    if (roll < 0.3) html += `<${tag}${pick(ATTRIBUTES)}${next() < 0.1 ? '/' : ''}>`;
    else if (roll < 0.5) html += `</${tag}>`;
    else if (roll < 0.85) html += pick(TEXT);
    else html += pick(MARKUP);
  }
  return html;
}

describe('stripTags', () => {
  it('removes tags, script content and entity-smuggled tags', () => {
    expect(stripTags('Bench <i>post</i> & co')).toBe('Bench post & co');
    expect(stripTags('a<script>alert(1)</script>b')).toBe('ab');
    expect(stripTags('&lt;b&gt;bold&lt;/b&gt;')).toBe('bold');
  });

  it('drops the content of script, style, textarea, option and xmp, nested tags included', () => {
    expect(stripTags('a<style>p{}</style>b<textarea><b>t</b></textarea>c')).toBe('abc');
    expect(stripTags('a<option>x<b>y</b>z</option>b<xmp><i>q</i></xmp>c')).toBe('abc');
    expect(stripTags('<b>kept <i>too</i></b>')).toBe('kept too');
  });

  it('returns text without < or & as it is, exactly as the parser would', () => {
    for (const text of [
      'plain',
      '  spaced\ttext\n',
      'quotes " and \' > arrows >',
      'é 漢字 🎉',
      'https://example.com/a?b=c',
      '',
    ]) {
      expect(stripTags(text)).toBe(text);
      expect(throughSanitizer(text)).toBe(text);
    }
  });

  it('gives the output sanitize-html gave on generated markup', () => {
    const mismatches: { seed: number; input: string; expected: string; actual: string }[] = [];
    for (let seed = 1; seed <= 20_000 && mismatches.length < 5; seed++) {
      const input = generate(seed);
      const expected = throughSanitizer(input);
      const actual = stripTags(input);
      if (actual !== expected) mismatches.push({ seed, input, expected, actual });
    }
    expect(mismatches).toEqual([]);
  });

  it('gives the output sanitize-html gave on random characters', () => {
    const { next, pick } = random(42);
    const alphabet = [...'<>/!-?[]&#;=\'" abxp\n', 'script', 'option', 'amp;', 'lt;', 'CDATA'];
    for (let i = 0; i < 5_000; i++) {
      let input = '';
      const length = Math.floor(next() * 40);
      for (let j = 0; j < length; j++) input += pick(alphabet);
      expect(stripTags(input), JSON.stringify(input)).toBe(throughSanitizer(input));
    }
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters HTML gives meaning to, wherever they are', () => {
    expect(escapeHtml(`Tom & Jerry's <b>"best"</b>`)).toBe(
      'Tom &amp; Jerry&#39;s &lt;b&gt;&quot;best&quot;&lt;/b&gt;',
    );
    expect(escapeHtml('&&')).toBe('&amp;&amp;');
    expect(escapeHtml("'")).toBe('&#39;');
  });

  it('returns text with nothing to escape unchanged', () => {
    for (const text of ['', 'Release 2.4 checks', 'ünïcödé – dashes, emoji 🚀', 'a=b; c/d']) {
      expect(escapeHtml(text)).toBe(text);
    }
  });
});
