import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

const STRIP_EVERYTHING: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  disallowedTagsMode: 'discard',
};

/**
 * Removes every HTML tag (script/style content included) and returns plain text. Entities are
 * decoded once before (so `&lt;b&gt;` cannot smuggle a tag past the parser) and once after (the
 * sanitiser re-encodes `&`, `<`, `>` in the text it keeps).
 */
export function stripTags(input: string): string {
  return decodeHTML(sanitizeHtml(decodeHTML(input), STRIP_EVERYTHING));
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}
