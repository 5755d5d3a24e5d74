import type { NotificationType } from '../notifications/notification-sink.js';
import { e2eContext, type E2eContext, linkOf, type SpecDetail, truncate } from './webhook-context.js';
import type { WebhookEvent } from './webhook-payloads.js';

/**
 * Teams refuses a message over 28 KB. The body stays well below that because the flow that posts
 * the card wraps it in a message of its own; lists are cut to fit, never the JSON.
 */
export const TEAMS_BODY_MAX_BYTES = 24 * 1024;

/**
 * Longest text per field, in characters before escaping. With them the card without any spec
 * line fits TEAMS_BODY_MAX_BYTES even when every character costs 4 bytes (a backslash escaped
 * for Markdown and then for JSON), so cutting the lists always reaches the limit.
 */
const MAX_CHARS = { title: 255, message: 4000, fact: 200, spec: 300, error: 300, author: 100 };
/** Longest link kept (the "Open" action, a spec's run); a longer one is left out. */
const MAX_LINK = 2000;
const MAX_SUSPECTS = 5;

type CardColor = 'attention' | 'good' | 'warning' | 'accent';
const TITLE_COLORS: Record<NotificationType, CardColor> = {
  e2e_failure: 'attention',
  e2e_success: 'good',
  system: 'warning',
  pr_update: 'accent',
  app_update: 'accent',
  info: 'accent',
};

// C0 and C1 controls and the Unicode line separators: shown as a space (a newline is kept where
// the field may hold several lines).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- the same, newline excepted
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Characters with a meaning wherever they stand (emphasis, code, links, HTML, entities, tables, `{{DATE()}}`). */
const ALWAYS_SPECIAL = /[\\`*_~[\](){}<>&|]/g;

/**
 * Text from uploads and users, made literal for a TextBlock or a fact value, which Teams reads as
 * Markdown. Adaptive Cards document a CommonMark subset (bold, italic, bullet and numbered lists,
 * `[text](url)` links); Teams' renderers accept more of CommonMark. CommonMark shows a backslash
 * followed by any ASCII punctuation as that character alone, so every character that could open
 * a construct gets one:
 * - everywhere: `* _ ~` (emphasis, strike-through), `` ` `` (code), `[ ] ( )` (links and images;
 *   escaping both brackets and parentheses also stops the older mobile parsers, which do not
 *   honour every escape, from pairing `](`), `< > &` (HTML, autolinks, `<at>` mentions, entities:
 *   `<b>` and `&lt;` arrive as typed), `|` (tables), `{ }` (the card's `{{DATE()}}` functions)
 *   and `\` itself;
 * - at the start of a line, where block syntax lives: `#` (headings), `-`, `+` and `=` (lists,
 *   rules, setext headings), the `.` of `1.` (numbered lists), and indentation (code blocks) is
 *   dropped; a `-` or `+` before a space is escaped anywhere, since older parsers start a list
 *   after a bracket too.
 * A mention needs an `msteams.entities` entry, which the card never has. Control characters
 * become spaces. Visible URLs stay visible text: a client may make one clickable, but its target
 * is then what the reader sees.
 */
export function cardText(raw: string, multiline = false): string {
  const cleaned = multiline
    ? raw.replace(/\r\n?/g, '\n').replace(CONTROLS_BUT_NEWLINE, ' ')
    : raw.replace(CONTROLS, ' ');
  return cleaned.split('\n').map(escapeLine).join('\n');
}

function escapeLine(line: string): string {
  return line
    .replace(/^[ \t]+/, '')
    .replace(ALWAYS_SPECIAL, '\\$&')
    .replace(/[-+](?=\s|$)/g, '\\$&')
    .replace(/^[#=]|^[-+](?!\s|$)/, '\\$&')
    .replace(/^(\d+)\./, '$1\\.');
}

/**
 * A link target for `[text](target)`: only the origin and the path, query and fragment (user
 * and password dropped), with the characters that could end or nest the Markdown link
 * percent-encoded.
 */
function markdownLinkTarget(url: string): string {
  const parsed = new URL(url);
  const rest = `${parsed.pathname}${parsed.search}${parsed.hash}`.replace(
    /[()[\]<>\\ ]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `${parsed.origin}${rest}`;
}

const clip = (text: string, max: number, multiline = false) => cardText(truncate(text, max), multiline);

/** "login.cy.ts — Timed out retrying after 4000ms — suspects #412 by alice ([run](…))" */
function specLine(detail: SpecDetail): string {
  const parts = [clip(detail.spec, MAX_CHARS.spec)];
  if (detail.error) parts.push(clip(detail.error, MAX_CHARS.error));
  if (detail.suspects.length > 0) {
    const names = detail.suspects
      .slice(0, MAX_SUSPECTS)
      .map((pull) => `#${pull.number}${pull.author ? ` by ${clip(pull.author, MAX_CHARS.author)}` : ''}`);
    parts.push(`suspects ${names.join(', ')}${detail.suspects.length > MAX_SUSPECTS ? ', …' : ''}`);
  }
  const line = parts.join(' — ');
  const target = detail.runUrl ? markdownLinkTarget(detail.runUrl) : '';
  return target && target.length <= MAX_LINK ? `${line} ([run](${target}))` : line;
}

const textBlock = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'TextBlock',
  text,
  wrap: true,
  ...extra,
});

/** The parts of a card before the lists are cut to size; every text already escaped. */
interface CardParts {
  heading: object[];
  specLines: string[];
  specCount: number;
  knownNames: string[];
  knownCount: number;
  actions: object[];
}

function factSet(e2e: E2eContext): object[] {
  const facts: { title: string; value: string }[] = [];
  if (e2e.appName) facts.push({ title: 'App', value: clip(e2e.appName, MAX_CHARS.fact) });
  if (e2e.runId) facts.push({ title: 'Run', value: `#${clip(e2e.runId, MAX_CHARS.fact)}` });
  if (e2e.author) facts.push({ title: 'Last commit by', value: clip(e2e.author, MAX_CHARS.fact) });
  return facts.length > 0 ? [{ type: 'FactSet', facts }] : [];
}

function cardParts(event: WebhookEvent): CardParts {
  const e2e = e2eContext(event);
  const heading: object[] = [
    textBlock(clip(event.title, MAX_CHARS.title), {
      weight: 'bolder',
      size: 'medium',
      color: TITLE_COLORS[event.type],
    }),
    textBlock(clip(event.message, MAX_CHARS.message, true)),
    ...(e2e ? factSet(e2e) : []),
  ];
  const withDetails = e2e !== undefined && e2e.details.length > 0;
  return {
    heading,
    specLines: withDetails
      ? e2e.details.map(specLine)
      : (e2e?.failingSpecs ?? []).map((spec) => clip(spec, MAX_CHARS.spec)),
    specCount: withDetails ? e2e.detailCount : (e2e?.failingSpecCount ?? 0),
    knownNames: (e2e?.knownSpecs ?? []).map((spec) => clip(spec, MAX_CHARS.spec)),
    knownCount: e2e?.knownSpecCount ?? 0,
    actions: openAction(event),
  };
}

/**
 * "Open" to the event's http(s) link. A link made of plain URL characters goes as given; one with
 * spaces, quotes or other characters goes in its normalised (percent-encoded) form.
 */
function openAction(event: WebhookEvent): object[] {
  const link = linkOf(event);
  if (!link) return [];
  const plain = /^[\x21-\x7e]+$/.test(link) && !/["<>\\]/.test(link);
  const url = plain ? link : new URL(link).href;
  return url.length <= MAX_LINK ? [{ type: 'Action.OpenUrl', title: 'Open', url }] : [];
}

/** The card with the first `specs` failing specs and `known` quarantined ones named. */
function adaptiveCard(parts: CardParts, specs: number, known: number) {
  const body: object[] = [...parts.heading];
  if (parts.specCount > 0) {
    body.push(textBlock(`Failing specs (${parts.specCount})`, { weight: 'bolder' }));
    body.push(...parts.specLines.slice(0, specs).map((line) => textBlock(line)));
    if (parts.specCount > specs)
      body.push(textBlock(`and ${parts.specCount - specs} more`, { isSubtle: true }));
  }
  if (parts.knownCount > 0) {
    const names = parts.knownNames.slice(0, known).join(', ');
    const more = parts.knownCount - known;
    const list = [names, more > 0 ? `${names ? 'and ' : ''}${more} more` : ''].filter(Boolean).join(' ');
    body.push(textBlock(`Quarantined (known failures, not alerted): ${list}`, { isSubtle: true }));
  }
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    actions: parts.actions,
  };
}

/** The message a Teams Workflows webhook ("When a Teams webhook request is received") posts. */
const envelope = (card: object) => ({
  type: 'message',
  attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
});

/**
 * The JSON body for a `teams` webhook: an Adaptive Card in a message envelope, with as many of
 * the failing specs (then of the quarantined ones) named as fit in TEAMS_BODY_MAX_BYTES.
 */
export function teamsBody(event: WebhookEvent): string {
  const parts = cardParts(event);
  let specs = parts.specLines.length;
  let known = parts.knownNames.length;
  for (;;) {
    const body = JSON.stringify(envelope(adaptiveCard(parts, specs, known)));
    if (Buffer.byteLength(body, 'utf8') <= TEAMS_BODY_MAX_BYTES || (specs === 0 && known === 0)) return body;
    if (specs > 0) specs -= 1;
    else known -= 1;
  }
}
