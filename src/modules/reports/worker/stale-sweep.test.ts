import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBroker } from '../../../broker/in-process-broker.js';
import { createReportsRepository } from '../reports.repository.js';
import { openTestDatabase } from '../../../../test/support/test-database.js';
import { createReportProcessor } from './report-processor.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const noRows = { specDetails: async function* () {} };

describe('stale pending sweep', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('lets one worker per interval republish the stale dates, and counts them once', async () => {
    const database = await openTestDatabase('sqlite');
    cleanups.push(() => database.close());
    const broker = createInProcessBroker();
    cleanups.push(() => broker.close());
    const repository = createReportsRepository(database.db);
    for (const date of ['2025-05-01', '2025-05-02', '2025-05-03']) {
      await repository.markStale((await repository.markPending(date)).id);
    }
    // A fresh pending date is still being worked on: not stale.
    await repository.markPending('2025-05-04');

    const processors = ['worker-a', 'worker-b'].map((workerId) =>
      createReportProcessor({
        broker,
        repository,
        source: noRows,
        notify: async () => undefined,
        log: quiet,
        settings: { retryBaseMs: 1000, visibilityMs: 10_000, staleMs: 60_000 },
        workerId,
      }),
    );
    const swept = await Promise.all(processors.map((processor) => processor.sweepStaleIfFirst()));
    expect(swept.sort()).toEqual([0, 3]);
    const stats = await broker.reportQueue.stats(Date.now());
    expect(stats).toMatchObject({ queued: 3, staleRepublished: 3 });

    const queued: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      queued.push(JSON.parse((await broker.reportQueue.take('reader', 0))!).date as string);
    }
    expect(queued.sort()).toEqual(['2025-05-01', '2025-05-02', '2025-05-03']);
    // Republished dates count as touched: the next interval finds nothing left to sweep.
    expect(await processors[1]!.sweepStale()).toBe(0);
  });
});
