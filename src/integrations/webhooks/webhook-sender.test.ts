import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../../test/fakes/fake-http.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, sendWebhook } from './webhook-sender.js';

describe('Retry-After', () => {
  const now = Date.parse('2025-03-10T12:00:00.000Z');

  it('reads seconds and HTTP dates, never negative, capped at an hour', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 10 Mar 2025 12:00:20 GMT', now)).toBe(20_000);
    expect(parseRetryAfter('Mon, 10 Mar 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('sendWebhook against a receiver that never finishes its answer', () => {
  it('reports the status at once and closes the connection after the time-out', async () => {
    let closedAt: number | undefined;
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 20);
      res.on('close', () => {
        clearInterval(drip);
        closedAt = Date.now();
      });
    });
    const { origin, close } = await listenOnLoopback(server);
    try {
      const started = Date.now();
      const outcome = await sendWebhook({
        url: `${origin}/hook`,
        body: '{}',
        headers: {},
        timeoutMs: 300,
        refuseInternal: false,
      });
      expect(outcome.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(250);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(closedAt).toBeDefined();
      expect(closedAt! - started).toBeGreaterThanOrEqual(290);
    } finally {
      await close();
    }
  });
});
