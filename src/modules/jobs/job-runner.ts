import type { JobRunRow, JobRunsRepository } from './jobs.repository.js';

export interface JobLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface StartedRun {
  /** The record as written at start (`outcome: running`). */
  run: JobRunRow;
  /** Settles (never rejects) with the completed record once the work ends. */
  done: Promise<JobRunRow>;
}

/** Runs are kept this long: the table stays small even for jobs scheduled every second. */
export const JOB_RUN_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** Longest error text kept in a run record: enough for a message and a few stack lines. */
const MAX_ERROR_LENGTH = 2000;

/**
 * Runs a piece of work with a record in `job_runs`: the row is written before the work starts, so
 * a run in progress is visible, and completed with end, duration, outcome and error.
 */
export function createJobRunner(deps: {
  repository: JobRunsRepository;
  logger: JobLogger;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  return {
    async start(jobName: string, work: () => Promise<unknown>): Promise<StartedRun> {
      const startedAt = now();
      const run = await deps.repository.start(jobName, startedAt.toISOString());
      deps.logger.info({ job: jobName, runId: run.id }, 'job started');
      const done = (async () => {
        let error: string | null = null;
        try {
          const result = await work();
          deps.logger.info({ job: jobName, runId: run.id, result }, 'job succeeded');
        } catch (failure) {
          error = describeError(failure);
          deps.logger.error({ job: jobName, runId: run.id, err: failure }, 'job failed');
        }
        const finishedAt = now();
        const finished = await deps.repository
          .finish(run.id, {
            finishedAt: finishedAt.toISOString(),
            durationMs: Math.max(0, finishedAt.getTime() - startedAt.getTime()),
            outcome: error === null ? 'success' : 'failed',
            error,
          })
          .catch((failure: unknown) => {
            deps.logger.error(
              { job: jobName, runId: run.id, err: failure },
              'could not record the job result',
            );
            return undefined;
          });
        await deps.repository
          .pruneBefore(jobName, new Date(finishedAt.getTime() - JOB_RUN_RETENTION_MS).toISOString())
          .catch((failure: unknown) => {
            deps.logger.error({ job: jobName, err: failure }, 'could not prune old job runs');
          });
        return finished ?? run;
      })();
      return { run, done };
    },

    /** Starts the work and waits for it to end. */
    async run(jobName: string, work: () => Promise<unknown>): Promise<JobRunRow> {
      return (await this.start(jobName, work)).done;
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}
