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
  /** The jobs reaching the API at a base URL. */
  jobsAt: (apiBaseUrl: string) => Record<JobName, JobDefinition>;
  /** Where runs go when the caller names no API (API_BASE_URL). */
  fallbackBaseUrl: string;
  repository: JobRunsRepository;
  runner: JobRunner;
  timezone: string;
}) {
  const inFlight = new Set<Promise<unknown>>();
  // Descriptions and schedules come from the configuration: the same whichever API a job reaches.
  const listed = deps.jobsAt(deps.fallbackBaseUrl);
  return {
    /** Exactly the four jobs of the spec, in the spec's order (per-app triggers are not listed). */
    async list(): Promise<JobStatus[]> {
      const latest = await deps.repository.latestOf(JOB_NAMES);
      return JOB_NAMES.map((name) => {
        const job = listed[name];
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

    /**
     * Starts a job now in this process, reaching the API at `apiBaseUrl` (the API process that was
     * asked, at its own listener; API_BASE_URL when absent), and returns its run record without
     * waiting for the end.
     */
    async runNow(requested: string, apiBaseUrl = deps.fallbackBaseUrl): Promise<JobRun> {
      const name = resolveJobName(requested);
      if (!name) {
        throw new NotFoundError(`Unknown job "${requested}" (known: ${JOB_NAMES.join(', ')})`);
      }
      const job = deps.jobsAt(apiBaseUrl)[name];
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
