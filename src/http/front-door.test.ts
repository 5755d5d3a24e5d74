import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthAnswer } from '../modules/health/health.check.js';
import { createFrontDoor } from './front-door.js';
import { createMetrics } from './metrics.js';
import { createResponseCache } from './response-cache.js';

const healthy: HealthAnswer = {
  statusCode: 200,
  etag: 'W/"ok"',
  body: {
    status: 'ok',
    version: 'test',
    uptime: 1,
    timestamp: '2026-01-01T00:00:00.000Z',
    checks: { database: { status: 'ok', latencyMs: 0 }, broker: { status: 'ok', latencyMs: 0 } },
  },
};

describe('front door failures', () => {
  const closers: (() => void)[] = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  async function serve(health: () => HealthAnswer | Promise<HealthAnswer>) {
    const door = createFrontDoor({
      baseHeaders: { 'x-content-type-options': 'nosniff' },
      health,
      cache: createResponseCache({ ttlMs: 1000 }),
      keyMatches: () => true,
      blockedUntilNow: () => undefined,
      apiRateLimit: 'off',
      trustProxy: false,
      metrics: createMetrics(),
      log: pino({ level: 'silent' }),
    });
    // Stands in for Fastify: whatever the front door hands on is answered by it.
    const server = door.serverFactory((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end('fastify');
    }, {});
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    closers.push(() => server.close());
    return { door, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('hands the request to Fastify when its health check throws or rejects', async () => {
    for (const health of [
      () => {
        throw new Error('broken');
      },
      () => Promise.reject(new Error('broken')),
    ]) {
      const { url } = await serve(health);
      const response = await fetch(`${url}/health`);
      expect(response.status).toBe(503);
      expect(await response.text()).toBe('fastify');
    }
  });

  it('answers itself while open and hands everything to Fastify once closed', async () => {
    const { door, url } = await serve(() => healthy);
    const open = await fetch(`${url}/health`);
    expect(open.status).toBe(200);
    expect(open.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await open.json()).toEqual(healthy.body);
    door.close();
    const closed = await fetch(`${url}/health`);
    expect(await closed.text()).toBe('fastify');
  });
});
