import type { NotificationSink } from '../../notifications/notification-sink.js';
import type { QuarantineEffects } from '../../quarantine/report-effects.js';
import { type Aggregate, createAggregator, reportWindow } from '../aggregation.js';
import {
  reportNotifications,
  type SuspectsSource,
  suspectsWithin,
  withFailingSpecDetails,
} from '../report-notifications.js';
import type { ReportRequest } from '../report-requests.js';
import type { ReportsRepository } from '../reports.repository.js';
import { addDays } from '../../../shared/time.js';

interface RowQuery {
  startDate: string;
  endDate: string;
  projects: readonly string[];
  /** The watched apps, for a source that feeds some of them from uploads. */
  apps?: readonly { id: number; name: string }[];
}

export interface RowSource {
  specDetails(query: RowQuery): AsyncIterable<Record<string, unknown>>;
  /** The same rows in batches, when the source reads them so: no await per row. */
  specDetailBatches?(query: RowQuery): AsyncIterable<readonly Record<string, unknown>[]>;
}

export interface ReportGenerationDeps {
  repository: ReportsRepository;
  source: RowSource;
  notify: NotificationSink;
  /** Takes known (quarantined) failures out of the e2e_failure alerts; all alerts kept when absent. */
  quarantine?: Pick<QuarantineEffects, 'filterReportNotifications'>;
  /** Suspect pull requests for the failing specs of e2e_failure alerts; none when absent. */
  suspects?: SuspectsSource;
  /** Stores the figures of the report's tests lists (worked out on the first read when absent). */
  testWindows?: { storeWindowsOf(date: string): Promise<void> };
}

/**
 * Regenerates one date: folds the source's rows into the report, saves it, and (for the newest
 * date only) stores the alerts it raises. The caller holds the date's lock and settles the message.
 */
export async function generateReport(
  deps: ReportGenerationDeps,
  request: ReportRequest,
  warn: (error: unknown, message: string) => void,
) {
  const { repository } = deps;
  await repository.markPending(request.date, (request.retryCount ?? 0) + 1);
  const apps = await repository.watchedApps();
  const aggregator = createAggregator(apps, request.date);
  if (apps.length > 0) {
    const projects = [...new Set(apps.map((app) => app.name))];
    const query = { ...reportWindow(request.date), projects, apps };
    if (deps.source.specDetailBatches) {
      for await (const rows of deps.source.specDetailBatches(query)) {
        for (const row of rows) aggregator.add(row);
      }
    } else {
      for await (const row of deps.source.specDetails(query)) aggregator.add(row);
    }
  }
  const aggregate = aggregator.finish();
  const [previousDay, sameDay] = await Promise.all([
    repository.listDetailsForDate(addDays(request.date, -1)),
    repository.listDetailsForDate(request.date),
  ]);
  await deps.testWindows
    ?.storeWindowsOf(request.date)
    .catch((error: unknown) => warn(error, "could not store the figures of the report's tests"));
  // Saved still pending: the alerts are stored before the report turns ready, so whoever sees
  // it ready sees its alerts too. A retry after a failure in between finds these details as the
  // date's own and raises nothing twice.
  await repository.saveReport(request.date, aggregate, { ready: false });
  await notifyChanges(deps, request, aggregate, apps, previousDay, sameDay, warn);
  await repository.markReady(request.date);
  return aggregate;
}

async function notifyChanges(
  deps: ReportGenerationDeps,
  request: ReportRequest,
  aggregate: Aggregate,
  apps: readonly { id: number; name: string }[],
  previousDay: Awaited<ReturnType<ReportsRepository['listDetailsForDate']>>,
  sameDay: Awaited<ReturnType<ReportsRepository['listDetailsForDate']>>,
  warn: (error: unknown, message: string) => void,
): Promise<void> {
  // A backfill or replay of past dates must not push news about the past: only the newest
  // report speaks. Pending newer dates count too, so a backfill requested all at once (oldest
  // processed first) stays silent until its newest date.
  const newest = await deps.repository.newestReportDate();
  if (newest !== undefined && newest > request.date) return;
  const names = new Map(apps.map((app) => [app.id, app.name]));
  const notifications = reportNotifications(aggregate.details, names, previousDay, sameDay);
  const kept = await (deps.quarantine?.filterReportNotifications(notifications) ?? notifications);
  const detailed = await withFailingSpecDetails(kept, aggregate.details, suspectsWithin(deps.suspects));
  for (const notification of detailed) {
    await deps
      .notify(notification)
      .catch((error: unknown) => warn(error, 'could not store a report notification'));
  }
}
