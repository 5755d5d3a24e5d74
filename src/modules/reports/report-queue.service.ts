import type { Broker, QueueStats } from '../../broker/broker.js';
import { ServiceUnavailableError } from '../../shared/errors.js';
import type { ReportsRepository } from './reports.repository.js';
import { countOrphanedPending } from './worker/queue-recovery.js';

/** The spec's suggested alert thresholds, applied to the queue (Background messaging, rule 6). */
export const ALERT_THRESHOLDS = { queueLength: 100, oldestAgeMs: 5 * 60_000 } as const;

export function queueAlerts(stats: QueueStats): string[] {
  const alerts: string[] = [];
  if (stats.queued > ALERT_THRESHOLDS.queueLength) alerts.push(`queue length ${stats.queued} is above 100`);
  if (stats.deadLetters > 0) alerts.push(`${stats.deadLetters} dead-lettered report requests`);
  if (stats.oldestAgeMs !== null && stats.oldestAgeMs > ALERT_THRESHOLDS.oldestAgeMs) {
    alerts.push('the oldest waiting request has waited more than 5 minutes');
  }
  return alerts;
}

/** The operator's side of the report queue: its state, the dead letters and their replay. */
export function createReportQueueService(deps: { broker: Broker; repository: ReportsRepository }) {
  const { broker, repository } = deps;
  return {
    async queueStatus() {
      let stats: QueueStats;
      try {
        stats = await broker.reportQueue.stats(Date.now());
      } catch {
        throw new ServiceUnavailableError('The message broker is unavailable');
      }
      // Outside the try: a database failure here is answered as the database's (503 too).
      const orphanedPending = await countOrphanedPending(broker.reportQueue, repository);
      return { broker: broker.kind, ...stats, orphanedPending, alerts: queueAlerts(stats) };
    },

    /** Reports pending longer than a minute with nothing queued for them (a gauge of /metrics). */
    orphanedPending: () => countOrphanedPending(broker.reportQueue, repository),

    async deadLetters(limit: number) {
      try {
        return await broker.reportQueue.deadLetters(limit);
      } catch {
        throw new ServiceUnavailableError('The message broker is unavailable');
      }
    },

    async replayDeadLetters(): Promise<number> {
      try {
        return await broker.reportQueue.replayDeadLetters();
      } catch {
        throw new ServiceUnavailableError('The message broker is unavailable');
      }
    },
  };
}

export type ReportQueueService = ReturnType<typeof createReportQueueService>;
