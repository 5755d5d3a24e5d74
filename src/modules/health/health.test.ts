import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp } from '../../../test/support/test-container.js';
import { createInProcessBroker } from '../../broker/in-process-broker.js';
import { openTestDatabase } from '../../../test/support/test-database.js';
import { testConfig } from '../../../test/support/test-app.js';
import { createHealthCheck, runProbe, sharedProbe } from './health.check.js';
import type { HealthAnswer } from './health.check.js';

describe('GET /health', () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  /** `state` is read at each probe, so a test can take a dependency down between requests. */
  async function appWith(state: { brokerDown?: boolean; databaseDown?: boolean }) {
    const database = await openTestDatabase('sqlite');
    const broker = createInProcessBroker();
    // Answers within one millisecond are shared; here each request has a millisecond of its own,
    // so a state changed between two requests shows in the second.
    let step = 0;
    const app = await buildTestApp(testConfig(), {
      clock: () => Date.now() + (step += 1),
      database: {
        ...database,
        ping: () => (state.databaseDown ? Promise.reject(new Error('gone')) : database.ping()),
      },
      // A broker that does not answer, as a Redis broker does while Redis is down.
      broker: {
        ...broker,
        ping: () => (state.brokerDown ? Promise.reject(new Error('ECONNREFUSED')) : broker.ping()),
      },
    });
    closers.push(async () => {
      await app.close();
      await broker.close();
      await database.close();
    });
    return app;
  }

  it('reports ok with version, uptime, timestamp and checks, without a key', async () => {
    const res = await (await appWith({})).inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      checks: { database: { status: 'ok' }, broker: { status: 'ok' } },
    });
    expect(body.uptime).toBeGreaterThanOrEqual(0);
    expect(body.checks.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it('stays 200 but degraded when the broker is down', async () => {
    const res = await (await appWith({ brokerDown: true })).inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      checks: { broker: { status: 'down' }, database: { status: 'ok' } },
    });
  });

  it('answers 503 when the database does not answer', async () => {
    const res = await (await appWith({ databaseDown: true })).inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'down', checks: { database: { status: 'down' } } });
  });

  it('answers 304 to its weak ETag while the state is the same, 200 once it changes', async () => {
    const state = { brokerDown: false, databaseDown: false };
    const app = await appWith(state);
    const first = await app.inject({ method: 'GET', url: '/health' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({ method: 'GET', url: '/health', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    state.brokerDown = true;
    const degraded = await app.inject({ method: 'GET', url: '/health', headers: { 'if-none-match': etag } });
    expect(degraded.statusCode).toBe(200);
    expect(degraded.json()).toMatchObject({ status: 'degraded' });
    expect(degraded.headers.etag).not.toBe(etag);

    // Down is always said in full, whatever validator the client holds.
    state.databaseDown = true;
    const down = await app.inject({ method: 'GET', url: '/health' });
    const downAgain = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'if-none-match': down.headers.etag as string },
    });
    expect(downAgain.statusCode).toBe(503);
    expect(downAgain.json()).toMatchObject({ status: 'down' });
  });

  it('shares one probe between requests that arrive while it runs, and reuses none after', async () => {
    let calls = 0;
    let answer: () => void = () => undefined;
    const probe = sharedProbe(() => {
      calls += 1;
      return new Promise<void>((resolve) => (answer = resolve));
    });
    const waiting = [probe(), probe(), probe()];
    expect(calls).toBe(1);
    answer();
    const checks = await Promise.all(waiting as Promise<{ status: string }>[]);
    expect(checks.map((check) => check.status)).toEqual(['ok', 'ok', 'ok']);
    const next = probe();
    expect(calls).toBe(2);
    answer();
    await next;
  });

  it('shares one answer within a millisecond and probes again in the next', () => {
    let now = Date.parse('2026-11-26T10:00:00.000Z');
    const probed = { database: 0, broker: 0 };
    let databaseDown = false;
    const check = createHealthCheck(
      {
        database: () => {
          probed.database += 1;
          if (databaseDown) throw new Error('closed');
        },
        broker: () => {
          probed.broker += 1;
        },
      },
      () => now,
    );
    const first = check();
    expect(check()).toBe(first);
    expect(probed).toEqual({ database: 1, broker: 1 });
    expect((first as HealthAnswer).body.timestamp).toBe('2026-11-26T10:00:00.000Z');

    databaseDown = true;
    expect(check()).toBe(first);
    now += 1;
    const next = check() as HealthAnswer;
    expect(probed).toEqual({ database: 2, broker: 2 });
    expect(next.statusCode).toBe(503);
    expect(next.body.timestamp).toBe('2026-11-26T10:00:00.001Z');
  });

  it('keeps no answer whose probes were asynchronous', async () => {
    let probes = 0;
    const check = createHealthCheck(
      {
        database: () => {
          probes += 1;
          return Promise.resolve();
        },
        broker: () => undefined,
      },
      () => 1_000,
    );
    await check();
    await check();
    expect(probes).toBe(2);
  });

  it('answers a synchronous probe at once, and times out one that hangs', async () => {
    // The embedded database and broker answer synchronously: no promise, no timer.
    expect(runProbe(() => undefined)).toMatchObject({ status: 'ok' });
    expect(
      runProbe(() => {
        throw new Error('closed');
      }),
    ).toMatchObject({ status: 'down' });
    vi.useFakeTimers();
    try {
      const hanging = runProbe(() => new Promise<void>(() => undefined));
      expect(hanging).toBeInstanceOf(Promise);
      await vi.advanceTimersByTimeAsync(2000);
      await expect(hanging).resolves.toMatchObject({ status: 'down' });
    } finally {
      vi.useRealTimers();
    }
  });
});
