import { createRequire } from 'node:module';
import { decodeHTML } from 'entities';
import type sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { stripTags } from './sanitize.js';

const sanitize = createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
/** The full path, parser included, that the shortcut must agree with. */
const throughParser = (input: string) =>
  decodeHTML(
    sanitize(decodeHTML(input), { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' }),
  );

describe('stripTags', () => {
  it('removes tags, script content and entity-smuggled tags', () => {
    expect(stripTags('Bench <i>post</i> & co')).toBe('Bench post & co');
    expect(stripTags('a<script>alert(1)</script>b')).toBe('ab');
    expect(stripTags('&lt;b&gt;bold&lt;/b&gt;')).toBe('bold');
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
      expect(throughParser(text)).toBe(text);
    }
  });
});
