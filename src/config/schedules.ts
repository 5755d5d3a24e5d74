import type { Config } from './config.js';
import { type Env, readCron } from './env-parsers.js';

export const DEFAULT_SCHEDULES = {
  e2eReport: '0 9 * * *',
  prManagement: '0 9 * * 1-5',
  manualTicketsReminder: '0 9 * * 1-5',
  deleteCompletedTodos: '0 2 * * 0',
  quarantineReview: '15 * * * *',
} as const;

/** The schedules of the jobs, each a cron expression checked in `timezone` (CRON_TZ). */
export function readSchedules(env: Env, timezone: string): Config['jobs'] {
  return {
    timezone,
    e2eReport: readCron(env, 'E2E_REPORT_CRON_SCHEDULE', DEFAULT_SCHEDULES.e2eReport, timezone),
    prManagement: readCron(env, 'PR_MANAGEMENT_SCHEDULE', DEFAULT_SCHEDULES.prManagement, timezone),
    manualTicketsReminder: readCron(
      env,
      'MANUAL_TICKETS_REMINDER_SCHEDULE',
      DEFAULT_SCHEDULES.manualTicketsReminder,
      timezone,
    ),
    deleteCompletedTodos: readCron(
      env,
      'DELETE_COMPLETED_TODOS_SCHEDULE',
      DEFAULT_SCHEDULES.deleteCompletedTodos,
      timezone,
    ),
    quarantineReview: readCron(
      env,
      'QUARANTINE_REVIEW_SCHEDULE',
      DEFAULT_SCHEDULES.quarantineReview,
      timezone,
    ),
  };
}
