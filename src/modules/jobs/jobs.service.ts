import { Cron } from 'croner';
import { NotFoundError } from '../../shared/errors.js';
import type { JobDefinition } from './job-definitions.js';
import type { JobRunner } from './job-runner.js';
import type { JobRunRow, JobRunsRepository } from './jobs.repository.js';
import {
  resolveJobName,
  JOB_NAMES,
  type JobName,
  type JobOutcome,
  type JobRun,
  type JobStatus,
} from './jobs.schema.js';
import { settleWithin } from '../../shared/settle.js';

export function toJobRun(row: JobRunRow): JobRun {
  return {
    id: row.id,
    job: row.job_name,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    outcome: row.outcome as JobOutcome,
    error: row.error,
  };
}

/** Next planned run of a schedule from now, computed here so any process can answer. */
export function nextRunOf(schedule: string, timezone: string, from = new Date()): string | null {
  const cron = new Cron(schedule, { timezone, paused: true });
  try {
    return cron.nextRun(from)?.toISOString() ?? null;
  } finally {
    cron.stop();
  }
}

export function createJobsService(deps: {
  jobs: Record<JobName, JobDefinition>;
  repository: JobRunsRepository;
  runner: JobRunner;
  timezone: string;
}) {
  const inFlight = new Set<Promise<unknown>>();
  return {
    /** Exactly the four jobs of the spec, in the spec's order (per-app triggers are not listed). */
    async list(): Promise<JobStatus[]> {
      const latest = await deps.repository.latestOf(JOB_NAMES);
      return JOB_NAMES.map((name) => {
        const job = deps.jobs[name];
        const last = latest.get(name);
        return {
          name,
          description: job.description,
          schedule: job.schedule,
          timezone: deps.timezone,
          lastRun: last?.started_at ?? null,
          lastResult: (last?.outcome as JobOutcome | undefined) ?? null,
          lastDurationMs: last?.duration_ms ?? null,
          lastError: last?.error ?? null,
          nextRun: nextRunOf(job.schedule, deps.timezone),
        };
      });
    },

    /** Starts a job now in this process and returns its run record without waiting for the end. */
    async runNow(requested: string): Promise<JobRun> {
      const name = resolveJobName(requested);
      if (!name) {
        throw new NotFoundError(`Unknown job "${requested}" (known: ${JOB_NAMES.join(', ')})`);
      }
      const job = deps.jobs[name];
      const { run, done } = await deps.runner.start(name, () => job.run());
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
      return toJobRun(run);
    },

    /** Waits for the runs started here to end (shutdown), at most `graceMs`. */
    async drain(graceMs = 30_000): Promise<void> {
      await settleWithin(inFlight, graceMs);
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;
