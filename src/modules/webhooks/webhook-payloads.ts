import { createHmac } from 'node:crypto';
import type { NotificationType } from '../notifications/notification-sink.js';
import { teamsBody } from './teams-card.js';
import { e2eContext, linkOf, type SpecDetail, truncate } from './webhook-context.js';
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
  if (kind === 'teams') return { body: teamsBody(event), headers: {} };
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
