import { type Static, Type } from '@sinclair/typebox';
import { OrNull, Timestamp } from '../../http/plumbing/schemas.js';

/**
 * The four scheduled jobs of the spec, then the quarantine review and the results retention. Names mirror their override
 * variables (`E2E_REPORT_CRON_SCHEDULE` → `e2e-report`, …) so an operator can tell which variable
 * moves which job.
 */
export const JOB_NAMES = [
  'e2e-report',
  'pr-management',
  'manual-tickets-reminder',
  'delete-completed-todos',
  'quarantine-review',
  'results-retention',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

export const isJobName = (value: string): value is JobName =>
  (JOB_NAMES as readonly string[]).includes(value);

/** Other names people use for the jobs (spec wording, config keys, variable names). */
const JOB_ALIASES: Record<string, JobName> = {
  'e2e-report-generation': 'e2e-report',
  'e2e-reports': 'e2e-report',
  'e2e-report-cron-schedule': 'e2e-report',
  'pull-request-management': 'pr-management',
  'pull-requests-management': 'pr-management',
  'pull-requests': 'pr-management',
  'pr-management-schedule': 'pr-management',
  'manual-testing-reminders': 'manual-tickets-reminder',
  'manual-testing-reminder': 'manual-tickets-reminder',
  'manual-tickets-reminders': 'manual-tickets-reminder',
  'manual-tickets-reminder-schedule': 'manual-tickets-reminder',
  'delete-completed-to-dos': 'delete-completed-todos',
  'delete-completed-todos-schedule': 'delete-completed-todos',
  'quarantine-review-schedule': 'quarantine-review',
  'results-retention-schedule': 'results-retention',
  retention: 'results-retention',
};

/**
 * The job a name designates: the canonical names, and their variants in camelCase, snake_case or
 * upper case (`deleteCompletedTodos`, `DELETE_COMPLETED_TODOS_SCHEDULE`) or the spec's wording.
 */
export function resolveJobName(raw: string): JobName | undefined {
  const name = raw
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  if (isJobName(name)) return name;
  return Object.hasOwn(JOB_ALIASES, name) ? JOB_ALIASES[name] : undefined;
}

export const JOB_OUTCOMES = ['running', 'success', 'failed'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

const Outcome = Type.Union(JOB_OUTCOMES.map((outcome) => Type.Literal(outcome)));

export const JobRun = Type.Object({
  id: Type.Integer(),
  job: Type.String(),
  startedAt: Timestamp,
  finishedAt: OrNull(Timestamp),
  durationMs: OrNull(Type.Integer()),
  outcome: Outcome,
  error: OrNull(Type.String()),
});
export type JobRun = Static<typeof JobRun>;

export const JobStatus = Type.Object(
  {
    name: Type.Union(JOB_NAMES.map((name) => Type.Literal(name))),
    description: Type.String(),
    schedule: Type.String({ description: 'cron expression in effect (default or override variable)' }),
    timezone: Type.String({ description: 'CRON_TZ' }),
    lastRun: OrNull(Timestamp),
    lastResult: OrNull(Outcome),
    lastDurationMs: OrNull(Type.Integer()),
    lastError: OrNull(Type.String()),
    nextRun: OrNull(Timestamp),
  },
  { title: 'JobStatus' },
);
export type JobStatus = Static<typeof JobStatus>;

export const JobNameParams = Type.Object({ name: Type.String({ maxLength: 100 }) });

export const JobListResponse = Type.Object({ success: Type.Literal(true), data: Type.Array(JobStatus) });
export type JobListResponse = Static<typeof JobListResponse>;

export const JobRunAccepted = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: JobRun,
});
export type JobRunAccepted = Static<typeof JobRunAccepted>;
