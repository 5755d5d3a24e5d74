import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { JobRunsTable } from '../../db/schema.js';
import type { JobOutcome } from './jobs.schema.js';

export type JobRunRow = Selectable<JobRunsTable>;

/** Where job runs are recorded: one row per run, written at start and completed at the end. */
export function createJobRunsRepository(db: Db) {
  return {
    async start(jobName: string, startedAt: string): Promise<JobRunRow> {
      return db
        .insertInto('job_runs')
        .values({ job_name: jobName, started_at: startedAt, outcome: 'running' satisfies JobOutcome })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async finish(
      id: number,
      result: {
        finishedAt: string;
        durationMs: number;
        outcome: Exclude<JobOutcome, 'running'>;
        error: string | null;
      },
    ): Promise<JobRunRow | undefined> {
      return db
        .updateTable('job_runs')
        .set({
          finished_at: result.finishedAt,
          duration_ms: result.durationMs,
          outcome: result.outcome,
          error: result.error,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    /** The most recent run of each named job (by start time, then id). */
    async latestOf(jobNames: readonly string[]): Promise<Map<string, JobRunRow>> {
      const latest = new Map<string, JobRunRow>();
      if (jobNames.length === 0) return latest;
      // One indexed lookup per job: the table grows with every tick, so no scan of all rows.
      const rows = await Promise.all(
        jobNames.map((name) =>
          db
            .selectFrom('job_runs')
            .selectAll()
            .where('job_name', '=', name)
            .orderBy('started_at', 'desc')
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst(),
        ),
      );
      for (const row of rows) if (row) latest.set(row.job_name, row);
      return latest;
    },

    /** Forgets runs of a job started before `beforeIso`; returns how many. */
    async pruneBefore(jobName: string, beforeIso: string): Promise<number> {
      const result = await db
        .deleteFrom('job_runs')
        .where('job_name', '=', jobName)
        .where('started_at', '<', beforeIso)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async listFor(jobName: string, limit: number): Promise<JobRunRow[]> {
      return db
        .selectFrom('job_runs')
        .selectAll()
        .where('job_name', '=', jobName)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

export type JobRunsRepository = ReturnType<typeof createJobRunsRepository>;
