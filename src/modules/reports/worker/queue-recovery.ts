import { randomUUID } from 'node:crypto';
import type { ReportQueue } from '../../../broker/broker.js';
import { dedupFor, parseReportRequest } from '../report-requests.js';
import type { SummaryRow } from '../report-rows.js';
import type { ReportsRepository } from '../reports.repository.js';

/** Name of the lock that lets one worker at a time sweep pending reports. */
export const SWEEP_LOCK = 'stale-sweep';
/** How often a worker looks at its marker in the broker (one SET NX: cheap). */
const MARKER_CHECK_MS = 1000;
/** A pending report without a queue entry for this long is counted as orphaned (operators see it). */
export const ORPHAN_AGE_MS = 60_000;
// Later than any `updated_at`: asking for pending reports "not touched since" it lists them all.
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

type Recoverable = Pick<ReportsRepository, 'stalePending' | 'touchSummary'>;

/** Enqueues a new request for each summary and restarts its stale clock. */
export async function republish(queue: ReportQueue, repository: Recoverable, summaries: SummaryRow[]) {
  for (const summary of summaries) {
    const message = { date: summary.date, requestId: `stale-${summary.id}-${randomUUID()}` };
    const payload = JSON.stringify(message);
    const { key, windowMs } = dedupFor(payload, message);
    await queue.enqueue(payload, key, windowMs);
    await repository.touchSummary(summary.id);
  }
  if (summaries.length > 0) await queue.countStaleRepublished(summaries.length);
}

/**
 * Pending summaries, not touched since `before`, whose date has no message waiting, in flight or
 * scheduled for a retry: nothing will ever process them unless someone republishes them.
 */
export async function orphanedPending(
  queue: ReportQueue,
  repository: Recoverable,
  before = END_OF_TIME,
): Promise<SummaryRow[]> {
  const pending = await repository.stalePending(before);
  if (pending.length === 0) return [];
  const held = new Set((await queue.heldMessages()).map((payload) => parseReportRequest(payload)?.date));
  return pending.filter((summary) => !held.has(summary.date));
}

/** How many reports have been pending longer than ORPHAN_AGE_MS with nothing queued for them. */
export async function countOrphanedPending(queue: ReportQueue, repository: Recoverable, nowMs = Date.now()) {
  return (await orphanedPending(queue, repository, new Date(nowMs - ORPHAN_AGE_MS).toISOString())).length;
}

export interface QueueRecoveryDeps {
  queue: ReportQueue;
  repository: Recoverable;
  workerId: string;
  /** How long the sweep lock is kept once taken (the periodic sweep's interval). */
  lockTtlMs: number;
  log: { warn(object: object, message: string): void };
}

/**
 * Recovery from a broker that lost its data (Redis restarted without persistence): the requests
 * it held are gone and their reports stay `pending`, which the periodic sweep would only notice
 * after REPORT_STALE_MS. A marker key kept among the broker's data tells: when it is missing, the
 * first worker to see it republishes, at once and under the sweep lock, every pending report that
 * has no queue entry left.
 */
export function createQueueRecovery(deps: QueueRecoveryDeps) {
  const { queue, repository, workerId, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let recoveryDue = false;
  let checking: Promise<void> | undefined;

  async function check(): Promise<void> {
    if (await queue.claimDataMarker()) recoveryDue = true;
    if (!recoveryDue) return;
    // Another worker sweeping now keeps this one due: it tries again on the next check.
    if (!(await queue.acquireLock(SWEEP_LOCK, workerId, deps.lockTtlMs))) return;
    try {
      const orphans = await orphanedPending(queue, repository);
      await republish(queue, repository, orphans);
      recoveryDue = false;
      if (orphans.length > 0) {
        log.warn({ count: orphans.length, workerId }, 'broker data was lost; re-queued pending reports');
      }
    } catch (error) {
      // Still due: the next check takes the lock again and retries.
      log.warn({ err: error, workerId }, 'could not re-queue the pending reports of lost broker data yet');
      await queue.releaseLock(SWEEP_LOCK, workerId).catch(() => undefined);
    }
  }

  /** One check at a time; a broker that does not answer is retried on the next one, quietly. */
  function checkNow(): Promise<void> {
    checking ??= check()
      .catch(() => undefined)
      .finally(() => (checking = undefined));
    return checking;
  }

  return {
    checkNow,
    start() {
      if (timer) return;
      timer = setInterval(() => void checkNow(), MARKER_CHECK_MS);
      timer.unref();
      void checkNow();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await checking;
    },
  };
}
