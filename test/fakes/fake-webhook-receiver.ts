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

export async function startFakeWebhookReceiver(): Promise<FakeWebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const path = `/services/${randomUUID()}/${randomUUID()}`;
  const state = {
    script: [] as ScriptedReply[],
    status: 200,
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
      const request = { path: req.url ?? '', headers: req.headers, rawBody, body, at: Date.now() };
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
