import { createRequire } from 'node:module';
import { decodeHTML } from 'entities';
import type { Parser } from 'htmlparser2';

// Hand-written over htmlparser2 (sanitize-html's own parser) rather than calling sanitize-html:
// stripping a title that holds markup costs about 29,000 instructions here against 144,000
// through sanitize-html with no tag allowed (callgrind, four typical titles), and sanitize-html
// also loads PostCSS. The differential test against sanitize-html keeps the outputs equal.
// The HTML parser is loaded with the first text that needs it, so a process that never receives
// a to-do does not hold it.
const require = createRequire(import.meta.url);

/**
 * Elements dropped together with their content; every other element loses its tags and keeps its
 * text. These are sanitize-html's `nonTextTags` (this module used to call sanitize-html with no tag
 * allowed; the differential test in sanitize.test.ts holds the two to the same output).
 */
const CONTENT_DROPPED = new Set(['script', 'style', 'textarea', 'option', 'xmp']);

let parserClass: typeof Parser | undefined;
// Shared by the calls: stripTags runs synchronously to completion, so they cannot interleave.
let kept = '';
/** How many elements deep we are inside an element whose content is dropped (0: keeping text). */
let droppedDepth = 0;

const handler = {
  onopentag(name: string): void {
    if (droppedDepth > 0) droppedDepth++;
    else if (CONTENT_DROPPED.has(name)) droppedDepth = 1;
  },
  // Like the sanitiser, any closing tag counts (not only the matching one): the parser itself
  // only emits closings for elements it opened, implied ones included.
  onclosetag(): void {
    if (droppedDepth > 0) droppedDepth--;
  },
  ontext(text: string): void {
    if (droppedDepth === 0) kept += text;
  },
};

function keptText(html: string): string {
  parserClass ??= (require('htmlparser2') as typeof import('htmlparser2')).Parser;
  kept = '';
  droppedDepth = 0;
  try {
    // A parser per call: `reset()` leaves some tokenizer state behind (a `<script` cut off at the
    // end of one text would change how the next one is read).
    new parserClass(handler, { decodeEntities: true }).end(html);
    return kept;
  } finally {
    kept = '';
  }
}

/**
 * Removes every HTML tag (script/style content included) and returns plain text. Entities are
 * decoded before parsing, so `&lt;b&gt;` cannot smuggle a tag past the parser; the parser decodes
 * the entities that remain in text (`&amp;lt;` ends as `<`, as it always has).
 */
export function stripTags(input: string): string {
  // Without `<` there is no tag, and without `&` no entity: the text would come back unchanged.
  if (!input.includes('<') && !input.includes('&')) return input;
  return keptText(decodeHTML(input));
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const SPECIAL = /[&<>"']/;

export function escapeHtml(text: string): string {
  // Most titles have nothing to escape: a test is cheaper than a replace with a callback.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char]!) : text;
}
