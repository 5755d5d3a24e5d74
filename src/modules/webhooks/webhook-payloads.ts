import { createHmac } from 'node:crypto';
import type { NotificationType } from '../notifications/notification-sink.js';
import type { WebhookKind } from './webhooks.schema.js';

/** What a webhook receives about one notification (`id` null for a test message). */
export interface WebhookEvent {
  id: number | null;
  type: NotificationType;
  title: string;
  message: string;
  data: Record<string, unknown> | null;
  createdAt: string;
}

export interface OutgoingWebhook {
  body: string;
  headers: Record<string, string>;
}

const E2E_TYPES: readonly string[] = ['e2e_failure', 'e2e_success'];
const MAX_SPECS = 10;
// Block Kit limits: a header holds 150 characters, a section text 3000.
const SLACK_HEADER_MAX = 150;
const SLACK_SECTION_MAX = 3000;

/** Body and headers of one delivery, in the format of the webhook's kind. */
export function formatWebhook(
  kind: WebhookKind,
  event: WebhookEvent,
  deliveryId: string,
  secret: string | null,
): OutgoingWebhook {
  if (kind === 'slack') return { body: JSON.stringify(slackMessage(event)), headers: {} };
  if (kind === 'teams') return { body: JSON.stringify(teamsCard(event)), headers: {} };
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    title: event.title,
    message: event.message,
    data: event.data,
    createdAt: event.createdAt,
  });
  return {
    body,
    headers: {
      'x-dashboard-event': event.type,
      'x-dashboard-delivery': deliveryId,
      ...(secret ? { 'x-dashboard-signature': signBody(body, secret) } : {}),
    },
  };
}

/** `sha256=<hex>`: HMAC-SHA256 of the exact bytes sent, keyed with the webhook's secret. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The context shown next to the message for end-to-end results: app, run and failing specs. */
interface E2eContext {
  appName?: string;
  runId?: string;
  /** Author of the commit the failing run tested, when known. */
  author?: string;
  failingSpecs: string[];
  /** Why each failing spec fails, when the alert says (`data.failingSpecDetails`). */
  details: SpecDetail[];
}

interface SpecDetail {
  spec: string;
  runUrl?: string;
  error?: string;
  suspects: { number: number; author?: string }[];
}

/** `data.failingSpecDetails` as far as it reads: entries without a spec name are left out. */
function specDetails(value: unknown): SpecDetail[] {
  if (!Array.isArray(value)) return [];
  const details: SpecDetail[] = [];
  for (const entry of value.slice(0, MAX_SPECS)) {
    if (!entry || typeof entry !== 'object') continue;
    const item = entry as Record<string, unknown>;
    if (typeof item.spec !== 'string' || item.spec === '') continue;
    const suspects = Array.isArray(item.suspects) ? (item.suspects as unknown[]) : [];
    details.push({
      spec: item.spec,
      runUrl: typeof item.runUrl === 'string' && /^https?:\/\//i.test(item.runUrl) ? item.runUrl : undefined,
      error: typeof item.error === 'string' && item.error !== '' ? item.error : undefined,
      suspects: suspects.flatMap((suspect) => {
        const pull = suspect as Record<string, unknown> | null;
        if (!pull || typeof pull.number !== 'number') return [];
        return [{ number: pull.number, author: typeof pull.author === 'string' ? pull.author : undefined }];
      }),
    });
  }
  return details;
}

/** "checkout: login.cy.ts — Timed out retrying after 4000ms — suspects #412 by alice" */
function detailLine(appName: string | undefined, detail: SpecDetail): string {
  const parts = [appName ? `${appName}: ${detail.spec}` : detail.spec];
  if (detail.error) parts.push(truncate(detail.error, 300));
  if (detail.suspects.length > 0) {
    const names = detail.suspects
      .slice(0, 5)
      .map((pull) => `#${pull.number}${pull.author ? ` by ${pull.author}` : ''}`);
    parts.push(`suspects ${names.join(', ')}${detail.suspects.length > 5 ? ', …' : ''}`);
  }
  return parts.join(' — ');
}

function e2eContext(event: WebhookEvent): E2eContext | undefined {
  if (!E2E_TYPES.includes(event.type)) return undefined;
  const data = event.data ?? {};
  const appName = typeof data.appName === 'string' && data.appName !== '' ? data.appName : undefined;
  const runId =
    typeof data.runId === 'number' || (typeof data.runId === 'string' && data.runId !== '')
      ? String(data.runId)
      : undefined;
  const author =
    typeof data.lastFailureAuthor === 'string' && data.lastFailureAuthor !== ''
      ? data.lastFailureAuthor
      : undefined;
  return {
    appName,
    runId,
    author,
    failingSpecs: specNames(data.failingSpecs),
    details: specDetails(data.failingSpecDetails),
  };
}

/** Spec names from `data.failingSpecs`: plain strings, or objects naming the spec. */
function specNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const names: string[] = [];
  for (const entry of value) {
    if (typeof entry === 'string' && entry !== '') names.push(entry);
    else if (entry && typeof entry === 'object') {
      const named = (entry as Record<string, unknown>).spec ?? (entry as Record<string, unknown>).name;
      if (typeof named === 'string' && named !== '') names.push(named);
    }
    if (names.length === MAX_SPECS) break;
  }
  return names;
}

function linkOf(event: WebhookEvent): string | undefined {
  const link = event.data?.link;
  return typeof link === 'string' && /^https?:\/\//i.test(link) ? link : undefined;
}

const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** Slack reads `&`, `<` and `>` as markup in mrkdwn; everything else is literal. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function slackMessage(event: WebhookEvent) {
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(event.title, SLACK_HEADER_MAX) } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: truncate(slackEscape(event.message), SLACK_SECTION_MAX) },
    },
  ];
  const e2e = e2eContext(event);
  const fields: object[] = [];
  if (e2e?.appName) fields.push({ type: 'mrkdwn', text: `*App*\n${slackEscape(e2e.appName)}` });
  if (e2e?.runId) fields.push({ type: 'mrkdwn', text: `*Run*\n#${slackEscape(e2e.runId)}` });
  if (e2e?.author) fields.push({ type: 'mrkdwn', text: `*Last commit by*\n${slackEscape(e2e.author)}` });
  if (fields.length > 0) blocks.push({ type: 'section', fields });
  if (e2e && e2e.details.length > 0) {
    const list = e2e.details
      .map((detail) => {
        const line = `• ${slackEscape(detailLine(e2e.appName, detail))}`;
        return detail.runUrl ? `${line} (<${detail.runUrl}|run>)` : line;
      })
      .join('\n');
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: truncate(`*Failing specs*\n${list}`, SLACK_SECTION_MAX) },
    });
  } else if (e2e && e2e.failingSpecs.length > 0) {
    const list = e2e.failingSpecs.map((spec) => `• ${slackEscape(spec)}`).join('\n');
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: truncate(`*Failing specs*\n${list}`, SLACK_SECTION_MAX) },
    });
  }
  const link = linkOf(event);
  const context = `${event.type} · ${event.createdAt}${link ? ` · <${link}|Open>` : ''}`;
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: context }] });
  // `text` is what notifications and clients without Block Kit show.
  return { text: `${event.title}: ${event.message}`, blocks };
}

const THEME_COLORS: Record<NotificationType, string> = {
  e2e_failure: 'D13438',
  e2e_success: '2EB886',
  pr_update: '6264A7',
  app_update: '0078D7',
  system: 'FFAA44',
  info: '0078D7',
};

function teamsCard(event: WebhookEvent) {
  const e2e = e2eContext(event);
  const facts: { name: string; value: string }[] = [{ name: 'Type', value: event.type }];
  if (e2e?.appName) facts.push({ name: 'App', value: e2e.appName });
  if (e2e?.runId) facts.push({ name: 'Run', value: `#${e2e.runId}` });
  if (e2e?.author) facts.push({ name: 'Last commit by', value: e2e.author });
  if (e2e && e2e.details.length > 0) {
    const lines = e2e.details.map((detail) => {
      const line = detailLine(e2e.appName, detail);
      return detail.runUrl ? `${line} ([run](${detail.runUrl}))` : line;
    });
    facts.push({ name: 'Failing specs', value: lines.join('\n\n') });
  } else if (e2e && e2e.failingSpecs.length > 0)
    facts.push({ name: 'Failing specs', value: e2e.failingSpecs.join(', ') });
  facts.push({ name: 'Created', value: event.createdAt });
  const link = linkOf(event);
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: truncate(event.title, SLACK_HEADER_MAX),
    themeColor: THEME_COLORS[event.type],
    title: event.title,
    text: event.message,
    sections: [{ facts }],
    ...(link
      ? { potentialAction: [{ '@type': 'OpenUri', name: 'Open', targets: [{ os: 'default', uri: link }] }] }
      : {}),
  };
}
