import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/support/test-container.js';
import { createInProcessBroker } from '../../broker/in-process-broker.js';
import { openTestDatabase } from '../../../test/support/databases.js';
import { testConfig } from '../../../test/support/test-app.js';

describe('GET /health', () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  async function appWith(options: { brokerDown?: boolean; databaseDown?: boolean }) {
    const database = await openTestDatabase('sqlite');
    const broker = createInProcessBroker();
    const app = await buildTestApp(testConfig(), {
      database: options.databaseDown
        ? { ...database, ping: () => Promise.reject(new Error('gone')) }
        : database,
      // A broker that does not answer, as a Redis broker does while Redis is down.
      broker: options.brokerDown
        ? { ...broker, ping: () => Promise.reject(new Error('ECONNREFUSED')) }
        : broker,
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
});
