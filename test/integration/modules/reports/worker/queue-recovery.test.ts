import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBroker } from '../../../../../src/broker/in-process-broker.js';
import type { Broker } from '../../../../../src/broker/broker.js';
import { createAggregator } from '../../../../../src/modules/reports/aggregation.js';
import {
  createReportsRepository,
  type ReportsRepository,
} from '../../../../../src/modules/reports/reports.repository.js';
import { DIALECTS, openTestDatabase } from '../../../../support/databases.js';
import {
  countOrphanedPending,
  SWEEP_LOCK,
} from '../../../../../src/modules/reports/worker/queue-recovery.js';
import { createReportProcessor } from '../../../../../src/modules/reports/worker/report-processor.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const noRows = { specDetails: async function* () {} };
const settings = { retryBaseMs: 1000, visibilityMs: 10_000, staleMs: 300_000 };

describe.each(DIALECTS)('recovery from lost broker data (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const database = await openTestDatabase(dialect);
    cleanups.push(() => database.close());
    // A broker just started (or restarted empty): its data marker is missing.
    const broker = createInProcessBroker();
    cleanups.push(() => broker.close());
    const repository = createReportsRepository(database.db);
    const processor = (workerId: string) =>
      createReportProcessor({
        broker,
        repository,
        source: noRows,
        notify: async () => undefined,
        log: quiet,
        settings,
        workerId,
      });
    return { broker, repository, processor };
  }

  const queuedDates = async (broker: Broker) =>
    (await broker.reportQueue.heldMessages()).map((payload) => JSON.parse(payload).date as string).sort();

  /** Pending dates: one long stale, one just requested, one whose request waits for a retry. */
  async function strand(broker: Broker, repository: ReportsRepository) {
    await repository.markStale((await repository.markPending('2025-05-01')).id);
    await repository.markPending('2025-05-02');
    await repository.markStale((await repository.markPending('2025-05-03')).id);
    const queue = broker.reportQueue;
    await queue.heartbeat('elsewhere', 60_000);
    await queue.enqueue(JSON.stringify({ date: '2025-05-03', requestId: 'r3' }));
    const taken = (await queue.take('elsewhere', 0))!;
    await queue.retryLater('elsewhere', taken, taken, Date.now() + 60_000);
    await repository.saveReport('2025-05-04', createAggregator([], '2025-05-04').finish());
  }

  it('republishes at once every pending report with no queue entry, fresh ones included, once', async () => {
    const { broker, repository, processor } = await setUp();
    await strand(broker, repository);
    expect(await countOrphanedPending(broker.reportQueue, repository)).toBe(1);

    const worker = processor('worker-a');
    await worker.recoverLostBrokerData();
    expect(await queuedDates(broker)).toEqual(['2025-05-01', '2025-05-02', '2025-05-03']);
    expect(await broker.reportQueue.stats(Date.now())).toMatchObject({ queued: 2, staleRepublished: 2 });
    expect(await countOrphanedPending(broker.reportQueue, repository)).toBe(0);

    // The marker is back: later checks, by this worker or another, republish nothing more.
    await worker.recoverLostBrokerData();
    await processor('worker-b').recoverLostBrokerData();
    expect(await broker.reportQueue.stats(Date.now())).toMatchObject({ queued: 2, staleRepublished: 2 });
  });

  it('waits for the sweep lock another worker holds, and then recovers', async () => {
    const { broker, repository, processor } = await setUp();
    await strand(broker, repository);
    expect(await broker.reportQueue.acquireLock(SWEEP_LOCK, 'worker-b', 60_000)).toBe(true);
    const worker = processor('worker-a');
    await worker.recoverLostBrokerData();
    expect((await broker.reportQueue.stats(Date.now())).queued).toBe(0);

    await broker.reportQueue.releaseLock(SWEEP_LOCK, 'worker-b');
    await worker.recoverLostBrokerData();
    expect(await queuedDates(broker)).toEqual(['2025-05-01', '2025-05-02', '2025-05-03']);
  });
});
