import type { NotificationInput } from '../notifications/notification-sink.js';
import type { AppReport } from './app-figures.js';
import type { SpecStat } from './spec-aggregation.js';

/** A pull request suspected of breaking a spec (as the suspects module finds them). */
export interface SuspectPull {
  number: number;
  title: string;
  url: string;
  author: string;
}

/** What a failure alert says about one failing spec. */
export interface FailingSpecDetail {
  spec: string;
  /** The spec's last failed run's page, when the rows named one. */
  runUrl: string | null;
  error: string | null;
  suspects: SuspectPull[];
}

/** The suspects of one failing spec of an app; never rejects, answers [] when it cannot tell. */
export type FindSuspects = (appId: number, spec: SpecStat) => Promise<SuspectPull[]>;

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
        data: {
          ...data,
          failingSpecs: detail.failingSpecs,
          // Known failures are taken out later (quarantine): none until then, always present.
          quarantinedFailingSpecs: [],
          lastFailureAuthor: detail.lastFailureAuthor,
        },
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

/**
 * Adds `data.failingSpecDetails` to each e2e_failure alert: per spec of its `failingSpecs` (after
 * known failures were taken out, same order) the last failed run's link, the error's first line
 * and the suspect pull requests, all specs of all alerts asked at once.
 */
export async function withFailingSpecDetails(
  notifications: readonly NotificationInput[],
  details: readonly AppReport[],
  findSuspects: FindSuspects | undefined,
): Promise<NotificationInput[]> {
  const byApp = new Map(details.map((detail) => [detail.appId, detail]));
  return Promise.all(
    notifications.map(async (notification) => {
      const data = notification.data;
      if (notification.type !== 'e2e_failure' || !data || !Array.isArray(data.failingSpecs)) {
        return notification;
      }
      const appId = typeof data.appId === 'number' ? data.appId : NaN;
      const specs = new Map(byApp.get(appId)?.specs.map((spec) => [spec.spec, spec]));
      const failingSpecDetails = await Promise.all(
        (data.failingSpecs as unknown[]).map(async (name): Promise<FailingSpecDetail> => {
          const spec = typeof name === 'string' ? specs.get(name) : undefined;
          return {
            spec: String(name),
            runUrl: spec?.lastFailedRunUrl ?? null,
            error: spec?.lastError?.message ?? null,
            suspects: spec && findSuspects ? await findSuspects(appId, spec) : [],
          };
        }),
      );
      return { ...notification, data: { ...data, failingSpecDetails } };
    }),
  );
}

/** Where failure alerts find suspects: the apps' repositories and the suspects module. */
export interface SuspectsSource {
  /** The most an alert waits for its suspects (EXTERNAL_TIMEOUT_MS). */
  budgetMs: number;
  repositoryUrlOf(appId: number): Promise<string | null>;
  pullRequestsWithin(
    input: { repositoryUrl: string | null; base: string | null; head: string | null },
    budgetMs: number,
  ): Promise<SuspectPull[]>;
}

/**
 * Suspects for the alerts of one report, all sharing one budget that starts now: however many
 * specs are asked, the alerts wait at most `budgetMs`, and any failure gives [] for its spec.
 */
export function suspectsWithin(source: SuspectsSource | undefined): FindSuspects | undefined {
  if (!source) return undefined;
  const deadline = Date.now() + source.budgetMs;
  const repositoryUrls = new Map<number, Promise<string | null>>();
  return async (appId, spec) => {
    if (spec.firstFailedCommitSha === null || spec.lastPassedCommitSha === null) return [];
    try {
      let repositoryUrl = repositoryUrls.get(appId);
      if (!repositoryUrl) {
        repositoryUrl = source.repositoryUrlOf(appId);
        repositoryUrls.set(appId, repositoryUrl);
      }
      const url = await repositoryUrl;
      const base = spec.lastPassedCommitSha;
      const head = spec.firstFailedCommitSha;
      return await source.pullRequestsWithin({ repositoryUrl: url, base, head }, deadline - Date.now());
    } catch {
      return [];
    }
  };
}
