import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from './fake-http.js';

/** One POST as the receiver saw it: the exact bytes (for signatures) and the parsed JSON. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  /** `Date.now()` when the request arrived. */
  at: number;
  /**
   * What a Teams workflow would fail on in this body (receivers started with `teams-workflow`;
   * always empty otherwise). Workflows accept the request either way, as Teams does.
   */
  problems: string[];
}

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
}

/**
 * An incoming-webhook endpoint on 127.0.0.1, the way Slack, Teams or a customer's server looks
 * from the outside: it takes POSTed JSON at a secret-looking path and answers with a status.
 * Replies follow `script` in order, then `status`; with `hang` set requests are never answered.
 */
export interface FakeWebhookReceiver {
  /** A full URL with a long, credential-like path (as Slack's and Teams' URLs are). */
  readonly url: string;
  readonly origin: string;
  readonly received: ReceivedWebhook[];
  script: ScriptedReply[];
  status: number;
  /** Decides the reply per request when set (before `script` and `status`). */
  reply: ((request: ReceivedWebhook) => ScriptedReply) | undefined;
  hang: boolean;
  /** Resolves when at least `count` requests have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export interface FakeReceiverOptions {
  /**
   * `teams-workflow`: a Teams Workflows webhook ("When a Teams webhook request is received"). It
   * answers 202 by default and checks each body as the flow's "post card" step would
   * (`teamsWorkflowProblems`), listing what is wrong in `problems`.
   */
  protocol?: 'generic' | 'teams-workflow';
}

export async function startFakeWebhookReceiver(
  options: FakeReceiverOptions = {},
): Promise<FakeWebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const path = `/services/${randomUUID()}/${randomUUID()}`;
  const teams = options.protocol === 'teams-workflow';
  const state = {
    script: [] as ScriptedReply[],
    status: teams ? 202 : 200,
    hang: false,
    reply: undefined as ((request: ReceivedWebhook) => ScriptedReply) | undefined,
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const problems = teams ? teamsWorkflowProblems(rawBody) : [];
      const request = { path: req.url ?? '', headers: req.headers, rawBody, body, at: Date.now(), problems };
      received.push(request);
      if (state.hang) return;
      if (req.method !== 'POST' || req.url !== path) {
        res.writeHead(404).end('no such webhook');
        return;
      }
      const reply = state.reply?.(request) ?? state.script.shift() ?? { status: state.status };
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
      res.end(reply.status < 300 ? 'ok' : 'error');
    });
  });
  const { origin, close } = await listenOnLoopback(server);

  return Object.assign(state, {
    url: `${origin}${path}`,
    origin,
    received,
    async waitFor(count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `expected ${count} webhook requests within ${timeoutMs} ms, got ${received.length}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received;
    },
    close,
  });
}

/** Teams refuses a message of 28 KB or more (counted here in thousands, the stricter reading). */
export const TEAMS_MESSAGE_LIMIT_BYTES = 28_000;
const CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';
const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';
/** TextBlock properties and their allowed values (Adaptive Cards 1.4), or the type any value must have. */
const TEXT_BLOCK: Record<string, readonly unknown[] | 'string' | 'boolean'> = {
  type: ['TextBlock'],
  text: 'string',
  wrap: [true],
  weight: ['default', 'lighter', 'bolder'],
  size: ['default', 'small', 'medium', 'large', 'extraLarge'],
  color: ['default', 'dark', 'light', 'accent', 'good', 'warning', 'attention'],
  isSubtle: 'boolean',
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const keysAre = (value: Json, keys: string[]) => Object.keys(value).sort().join() === [...keys].sort().join();

/**
 * Everything in a body that keeps a Workflows webhook from posting it: the exact envelope
 * `{type: "message", attachments: [{contentType, contentUrl: null, content: AdaptiveCard}]}`, a
 * version 1.4 card holding only wrapped TextBlocks and FactSets, Action.OpenUrl actions to http(s)
 * URLs, and less than 28 KB in all. Empty when the card would be posted.
 */
export function teamsWorkflowProblems(rawBody: string): string[] {
  const problems: string[] = [];
  const size = Buffer.byteLength(rawBody, 'utf8');
  if (size >= TEAMS_MESSAGE_LIMIT_BYTES) problems.push(`body of ${size} bytes is over the 28 KB limit`);
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return [...problems, 'body is not JSON'];
  }
  if (!isObject(body) || !keysAre(body, ['type', 'attachments']) || body.type !== 'message') {
    return [...problems, 'body is not {type: "message", attachments}'];
  }
  const attachments = body.attachments;
  if (!Array.isArray(attachments) || attachments.length !== 1) {
    return [...problems, 'attachments is not an array of one card (a MessageCard has none)'];
  }
  const attachment: unknown = attachments[0];
  if (
    !isObject(attachment) ||
    !keysAre(attachment, ['contentType', 'contentUrl', 'content']) ||
    attachment.contentType !== ADAPTIVE_CARD ||
    attachment.contentUrl !== null
  ) {
    return [...problems, `attachment is not {contentType: "${ADAPTIVE_CARD}", contentUrl: null, content}`];
  }
  const card = attachment.content;
  if (
    !isObject(card) ||
    !keysAre(card, ['$schema', 'type', 'version', 'body', 'actions']) ||
    card.$schema !== CARD_SCHEMA ||
    card.type !== 'AdaptiveCard' ||
    card.version !== '1.4'
  ) {
    return [...problems, 'content is not {$schema, type: "AdaptiveCard", version: "1.4", body, actions}'];
  }
  if (!Array.isArray(card.body) || card.body.length === 0) problems.push('body is not a list of elements');
  else
    (card.body as unknown[]).forEach((element, index) => problems.push(...elementProblems(element, index)));
  if (!Array.isArray(card.actions)) problems.push('actions is not a list');
  else
    (card.actions as unknown[]).forEach((action, index) => problems.push(...actionProblems(action, index)));
  return problems;
}

function elementProblems(element: unknown, index: number): string[] {
  const where = `body[${index}]`;
  if (!isObject(element)) return [`${where} is not an object`];
  if (element.type === 'FactSet') {
    const facts = element.facts;
    const valid =
      keysAre(element, ['type', 'facts']) &&
      Array.isArray(facts) &&
      facts.length > 0 &&
      facts.every(
        (fact) =>
          isObject(fact) &&
          keysAre(fact, ['title', 'value']) &&
          typeof fact.title === 'string' &&
          typeof fact.value === 'string',
      );
    return valid ? [] : [`${where}: a FactSet holds a non-empty list of {title, value} strings`];
  }
  if (element.type !== 'TextBlock') return [`${where}: unexpected element ${String(element.type)}`];
  const problems: string[] = [];
  if (typeof element.text !== 'string' || element.text === '') problems.push(`${where}.text is missing`);
  if (element.wrap !== true) problems.push(`${where} does not wrap`);
  for (const [key, value] of Object.entries(element)) {
    const allowed = TEXT_BLOCK[key];
    const valid =
      allowed === undefined
        ? false
        : Array.isArray(allowed)
          ? allowed.includes(value)
          : typeof value === allowed;
    if (!valid) problems.push(`${where}.${key}: ${JSON.stringify(value)} is not allowed`);
  }
  return problems;
}

function actionProblems(action: unknown, index: number): string[] {
  const where = `actions[${index}]`;
  if (
    !isObject(action) ||
    !keysAre(action, ['type', 'title', 'url']) ||
    action.type !== 'Action.OpenUrl' ||
    typeof action.title !== 'string' ||
    typeof action.url !== 'string'
  ) {
    return [`${where} is not {type: "Action.OpenUrl", title, url}`];
  }
  const url = URL.canParse(action.url) ? new URL(action.url) : undefined;
  return url && (url.protocol === 'http:' || url.protocol === 'https:')
    ? []
    : [`${where}.url is not an http(s) URL`];
}
