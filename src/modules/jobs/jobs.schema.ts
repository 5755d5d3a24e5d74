import { type Static, Type } from '@sinclair/typebox';
import { OrNull, Timestamp } from '../../http/schemas.js';

/**
 * The four scheduled jobs of the spec. Names mirror their override variables
 * (`E2E_REPORT_CRON_SCHEDULE` → `e2e-report`, …) so an operator can tell which variable moves which job.
 */
export const JOB_NAMES = [
  'e2e-report',
  'pr-management',
  'manual-tickets-reminder',
  'delete-completed-todos',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

export const isJobName = (value: string): value is JobName =>
  (JOB_NAMES as readonly string[]).includes(value);

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
