import { randomUUID } from 'node:crypto';
import { CHANNELS, type Broker } from '../../broker/broker.js';
import type { NotificationCreateMessage } from '../../broker/channels.js';
import type { Config } from '../../config/config.js';
import type { JobName } from './jobs.schema.js';

/**
 * What the jobs need from the API, as narrow functions. `createJobsApi` (jobs-api.ts) backs them
 * with the typed client: jobs never touch the database or an external service themselves.
 */
export interface JobsApi {
  /** `POST /api/pull_requests/sync`. */
  syncPullRequests(): Promise<unknown>;
  /** `DELETE /api/to_do_list?completed=true`; resolves with the number deleted. */
  deleteCompletedTodos(): Promise<number>;
  /** The manual_qa tracker query (`GET /api/tracker/manual_qa`). */
  fetchManualQaTickets(): Promise<{ total: number; keys: string[] }>;
  /** `POST /api/quarantine/review`: lifts quarantines whose ticket is done or that expired. */
  reviewQuarantines(): Promise<{ lifted: unknown[]; unchecked: number; trackerError: string | null }>;
}

export interface JobDefinition {
  name: JobName;
  description: string;
  schedule: string;
  /** Resolves with a short summary for the log; rejects when the job failed. */
  run(): Promise<unknown>;
}

export interface JobDeps {
  broker: Pick<Broker, 'publish'>;
  api: JobsApi;
  /** Time zone of the schedules (CRON_TZ): "today" of the report job is a day in this zone. */
  timezone: string;
  now?: () => Date;
  newRequestId?: () => string;
  /**
   * The results retention (src/modules/tests/results-retention.ts). It works on the database
   * itself: a purge of millions of rows takes minutes, longer than an HTTP request should.
   */
  resultsRetention?: { run(): Promise<unknown> };
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function dateIn(timezone: string, at: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

export function manualTestingMessage(count: number): string {
  return `${count} tickets need manual testing`;
}

/**
 * The review, as a job: a tracker that could not be asked fails the run (shown on /api/status)
 * after the expired quarantines were lifted; the quarantines it could not check wait for the next run.
 */
async function reviewQuarantines(api: JobsApi) {
  const result = await api.reviewQuarantines();
  if (result.trackerError !== null) {
    throw new Error(
      `${result.lifted.length} lifted; ${result.unchecked} left for the next run: ${result.trackerError}`,
    );
  }
  return { lifted: result.lifted.length };
}

/** The jobs (docs/contract-notes.md, "Scheduled jobs"), with the schedules in force (defaults or override variables). */
export function createJobs(config: Pick<Config, 'jobs'>, deps: JobDeps): Record<JobName, JobDefinition> {
  const now = deps.now ?? (() => new Date());
  const newRequestId = deps.newRequestId ?? randomUUID;
  return {
    'e2e-report': {
      name: 'e2e-report',
      description: 'Requests the daily E2E report (publishes on e2e:report:generate)',
      schedule: config.jobs.e2eReport,
      async run() {
        // Known failures whose ticket is done must alert again in today's report: review first.
        // The report is requested whatever the review's outcome (its failure is in the result).
        const quarantineReview = await reviewQuarantines(deps.api).then(
          (outcome) => outcome,
          (error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }),
        );
        const message = { date: dateIn(deps.timezone, now()), requestId: newRequestId() };
        await deps.broker.publish(CHANNELS.reportGenerate, message);
        return { ...message, quarantineReview };
      },
    },
    'pr-management': {
      name: 'pr-management',
      description: 'Refreshes tracked pull requests from GitHub and sends their notifications',
      schedule: config.jobs.prManagement,
      run: () => deps.api.syncPullRequests(),
    },
    'manual-tickets-reminder': {
      name: 'manual-tickets-reminder',
      description: 'Reminds, with one info notification, of tickets waiting for manual testing',
      schedule: config.jobs.manualTicketsReminder,
      async run() {
        const { total, keys } = await deps.api.fetchManualQaTickets();
        if (total === 0) return { count: 0, notified: false };
        // requestId: subscribers de-duplicate on it, so two runs are two reminders, not one.
        const notification: NotificationCreateMessage & { requestId: string } = {
          title: 'Manual testing reminder',
          message: manualTestingMessage(total),
          type: 'info',
          data: { count: total, keys },
          requestId: newRequestId(),
        };
        await deps.broker.publish(CHANNELS.notificationCreate, notification);
        return { count: total, notified: true };
      },
    },
    'delete-completed-todos': {
      name: 'delete-completed-todos',
      description: 'Deletes completed to-do items',
      schedule: config.jobs.deleteCompletedTodos,
      async run() {
        return { deleted: await deps.api.deleteCompletedTodos() };
      },
    },
    'quarantine-review': {
      name: 'quarantine-review',
      description:
        'Lifts quarantines whose tracker ticket is done or that expired (one info notification each)',
      schedule: config.jobs.quarantineReview,
      run: () => reviewQuarantines(deps.api),
    },
    'results-retention': {
      name: 'results-retention',
      description:
        'Deletes test-result uploads, their results and failures, and unused test identities older than RESULTS_RETENTION_DAYS',
      schedule: config.jobs.resultsRetention,
      async run() {
        if (!deps.resultsRetention) throw new Error('results retention is not available in this process');
        return deps.resultsRetention.run();
      },
    },
  };
}
