import type { Broker } from '../../broker/broker.js';
import { addDays, dateInZone } from '../../shared/time.js';
import { REPORT_WINDOW_DAYS } from './aggregation.js';
import type { ReportRefreshRepository } from './report-refresh.repository.js';
import { publishReportRequest } from './report-requests.js';
import type { ReportsRepository } from './reports.repository.js';

export interface RefreshSettings {
  /** REPORT_REFRESH_DELAY_MS: how long a requested regeneration waits for more uploads. */
  delayMs: number;
  /** CRON_TZ: an upload's own report is the day of its `createdAt` there. */
  timezone: string;
  now?: () => number;
}

/**
 * The reports an upload changes: the report of its own day (`createdAt` in CRON_TZ; created if
 * missing) and every later report that exists and whose 14-day window holds the upload. A day
 * after tomorrow is not a report anyone reads yet, so an upload never creates one.
 */
export async function datesChangedBy(
  repository: Pick<ReportRefreshRepository, 'reportDatesBetween'>,
  createdAt: string,
  settings: Pick<RefreshSettings, 'timezone' | 'now'>,
): Promise<string[]> {
  const now = settings.now?.() ?? Date.now();
  const at = new Date(createdAt);
  if (Number.isNaN(at.getTime())) return [];
  const own = dateInZone(at, settings.timezone);
  const tomorrow = addDays(dateInZone(new Date(now), settings.timezone), 1);
  // Windows are days in UTC: the report of D reads the runs of D-14 … D.
  const utcDay = at.toISOString().slice(0, 10);
  const later = await repository.reportDatesBetween(addDays(own, 1), addDays(utcDay, REPORT_WINDOW_DAYS));
  const dates = own <= tomorrow ? [own] : [];
  for (const date of later) {
    if (date > own && addDays(date, -REPORT_WINDOW_DAYS) <= utcDay && utcDay <= date) dates.push(date);
  }
  return dates;
}

/**
 * The upload side: each accepted upload asks for its dates to be regenerated `delayMs` from now,
 * unless they are already waiting. The answer to the upload never waits for a report.
 */
export function createRefreshRequests(repository: ReportRefreshRepository, settings: RefreshSettings) {
  const now = () => settings.now?.() ?? Date.now();
  return {
    async request(upload: { createdAt: string }): Promise<string[]> {
      const dates = await datesChangedBy(repository, upload.createdAt, settings);
      const at = now();
      await repository.request(
        dates,
        new Date(at + settings.delayMs).toISOString(),
        new Date(at).toISOString(),
      );
      return dates;
    },
  };
}

export interface RefreshPollerDeps {
  refreshes: ReportRefreshRepository;
  reports: Pick<ReportsRepository, 'markPending' | 'markStale'>;
  broker: Broker;
  /** How often due dates are looked for. */
  pollMs: number;
  warn: (error: unknown, message: string) => void;
}

/** Due dates claimed per look: the rest are taken on the next one. */
const CLAIM_LIMIT = 20;

/**
 * The worker side: looks for due dates, claims them (once across every worker) and requests
 * their reports like a client asking to regenerate (pending, published on `e2e:report:generate`),
 * so the last ready version stays readable meanwhile. A date whose request cannot be published is
 * left pending and backdated: the stale sweep publishes it again.
 */
export function createRefreshPoller(deps: RefreshPollerDeps) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function requestReport(date: string) {
    const pending = await deps.reports.markPending(date);
    try {
      await publishReportRequest(deps.broker, date);
    } catch (error) {
      await deps.reports.markStale(pending.id);
      deps.warn(error, 'could not publish the regeneration an upload asked for; the stale sweep will');
    }
  }

  async function poll(): Promise<number> {
    const dates = await deps.refreshes.claimDue(new Date().toISOString(), CLAIM_LIMIT);
    for (const date of dates) await requestReport(date);
    return dates.length;
  }

  const tick = () => {
    running = poll()
      .then(() => undefined)
      .catch((error: unknown) => deps.warn(error, 'could not look for reports to regenerate'))
      .finally(() => {
        running = undefined;
        if (timer !== undefined) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, deps.pollMs);
    timer.unref();
  };

  return {
    poll,
    start(): void {
      if (timer === undefined) schedule();
    },
    async stop(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

/** Looks often enough that the wait adds little to `delayMs`, never busier than 20 times a second. */
export const refreshPollMs = (delayMs: number) => Math.min(250, Math.max(50, Math.floor(delayMs / 4)));
