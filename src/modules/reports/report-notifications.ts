import type { NotificationInput } from '../notifications/notification-sink.js';
import type { AppReport } from './aggregation.js';

interface StoredDetail {
  app_id: number;
  last_run_status: string;
}

/** Says what broke and after whose commit, when the rows tell. */
function failureMessage(detail: AppReport, appName: string): string {
  const counts = `${detail.failedRuns} failed of ${detail.totalRuns} runs in the window`;
  const specs =
    detail.failingSpecs.length === 0
      ? ''
      : ` Failing: ${detail.failingSpecs.slice(0, 3).join(', ')}${detail.failingSpecs.length > 3 ? ', …' : ''}.`;
  const author = detail.lastFailureAuthor ? ` Last commit by ${detail.lastFailureAuthor}.` : '';
  return `Run #${detail.lastRunNumber} of ${appName} failed (${counts}).${specs}${author}`;
}

/**
 * Notifications after a report is ready: `e2e_failure` when an app's last run
 * failed and the previous day's report had it passing (or had no detail for it); `e2e_success`
 * when the previous day's last run failed and this one passed. A regeneration of the same date
 * does not repeat a notification it already caused (same last-run status as before).
 */
export function reportNotifications(
  details: readonly AppReport[],
  appNames: ReadonlyMap<number, string>,
  previousDay: readonly StoredDetail[],
  sameDayBefore: readonly StoredDetail[],
): NotificationInput[] {
  const previous = new Map(previousDay.map((detail) => [detail.app_id, detail.last_run_status]));
  const before = new Map(sameDayBefore.map((detail) => [detail.app_id, detail.last_run_status]));
  const notifications: NotificationInput[] = [];
  for (const detail of details) {
    if (before.get(detail.appId) === detail.lastRunStatus) continue;
    const appName = appNames.get(detail.appId) ?? `App ${detail.appId}`;
    const data = {
      appId: detail.appId,
      appName,
      runId: detail.lastRunNumber,
      failureCount: detail.failedRuns,
    };
    const was = previous.get(detail.appId);
    if (detail.lastRunStatus === 'failed' && was !== 'failed') {
      notifications.push({
        type: 'e2e_failure',
        title: `E2E tests failing: ${appName}`,
        message: failureMessage(detail, appName),
        data: { ...data, failingSpecs: detail.failingSpecs, lastFailureAuthor: detail.lastFailureAuthor },
      });
    } else if (detail.lastRunStatus === 'passed' && was === 'failed') {
      notifications.push({
        type: 'e2e_success',
        title: `E2E tests passing again: ${appName}`,
        message: `Run #${detail.lastRunNumber} of ${appName} passed after a failing run.`,
        data,
      });
    }
  }
  return notifications;
}
