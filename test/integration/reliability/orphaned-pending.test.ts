import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBroker } from '../../../src/broker/in-process-broker.js';
import { createReportsRepository } from '../../../src/modules/reports/reports.repository.js';
import { DIALECTS, openTestDatabase } from '../../support/databases.js';
import { TEST_KEY, testConfig } from '../../support/test-app.js';
import { buildTestApp } from '../../support/test-container.js';

/**
 * Reports left pending with nothing queued for them (their request lost with the broker's data)
 * are visible to the operator before any sweep republishes them: `orphanedPending` in the queue
 * status and the `dashboard_report_orphaned_pending` gauge count those pending over a minute.
 */
describe.each(DIALECTS)('orphaned pending reports, as the operator sees them (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('counts pending reports older than a minute with no queue entry, in /queue and /metrics', async () => {
    const database = await openTestDatabase(dialect);
    cleanups.push(() => database.close());
    const broker = createInProcessBroker();
    cleanups.push(() => broker.close());
    const app: FastifyInstance = await buildTestApp(testConfig(), { database, broker });
    cleanups.push(() => app.close());
    const get = async (url: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': TEST_KEY } });
    const gauge = async () =>
      Number(/^dashboard_report_orphaned_pending (\d+)$/m.exec((await get('/metrics')).body)?.[1]);

    const repository = createReportsRepository(database.db);
    // Two lost requests long ago, one just requested (still on its way), one waiting in the queue.
    for (const date of ['2025-08-01', '2025-08-02', '2025-08-04']) {
      await repository.markStale((await repository.markPending(date)).id);
    }
    await repository.markPending('2025-08-03');
    await broker.reportQueue.enqueue(JSON.stringify({ date: '2025-08-04', requestId: 'queued' }));

    const status = await get('/api/e2e_reports/queue');
    expect(status.statusCode).toBe(200);
    expect(status.json().data).toEqual({
      broker: 'in-process',
      queued: 1,
      inFlight: 0,
      scheduledRetries: 0,
      deadLetters: 0,
      oldestAgeMs: expect.any(Number),
      staleRepublished: 0,
      orphanedPending: 2,
      alerts: [],
    });
    expect(await gauge()).toBe(2);

    // A request for one of them taken by a worker: no longer orphaned.
    await broker.reportQueue.enqueue(JSON.stringify({ date: '2025-08-01', requestId: 'again' }));
    await broker.reportQueue.heartbeat('w', 60_000);
    await broker.reportQueue.take('w', 0);
    await broker.reportQueue.take('w', 0);
    expect((await get('/api/e2e_reports/queue')).json().data.orphanedPending).toBe(1);
    expect(await gauge()).toBe(1);
  });
});
