import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { nowIso } from '../../shared/time.js';
import type { SummaryRow } from './report-rows.js';

/**
 * The lifecycle writes of a date's summary: pending (with its attempt), retrying, failed. None of
 * them touches the figures, details or specs of the row: those are the last ready version, which
 * only `saveReport` replaces.
 */
export function createReportStateRepository(db: Db) {
  return {
    /**
     * Creates the date's summary as `pending`, or puts the existing one (same id) back to
     * `pending`; touching `updated_at` restarts the stale clock. Never duplicates a date, and never
     * touches the figures and details of the last ready version (they stay until a newer one is
     * saved). Without `attempt` (a new request) the progress starts over at attempt 1; with it (the
     * worker starting an attempt) a generation already pending keeps its queue time and last error.
     */
    async markPending(date: string, attempt?: number): Promise<SummaryRow> {
      const now = nowIso();
      const update = () =>
        db
          .updateTable('e2e_report_summaries')
          .set(
            attempt === undefined
              ? {
                  status: 'pending',
                  updated_at: now,
                  attempt: 1,
                  next_attempt_at: null,
                  last_error: null,
                  queued_at: now,
                }
              : {
                  status: 'pending',
                  updated_at: now,
                  attempt,
                  next_attempt_at: null,
                  last_error: sql<string | null>`CASE WHEN status = 'pending' THEN last_error END`,
                  queued_at: sql<string>`CASE WHEN status = 'pending' AND queued_at IS NOT NULL THEN queued_at ELSE ${now} END`,
                },
          )
          .where('date', '=', date)
          .returningAll()
          .executeTakeFirst();
      const existing = await update();
      if (existing) return existing;
      try {
        return await db
          .insertInto('e2e_report_summaries')
          .values({
            date,
            status: 'pending',
            total_runs: 0,
            passed_runs: 0,
            failed_runs: 0,
            success_rate: 0,
            created_at: now,
            updated_at: now,
            attempt: attempt ?? 1,
            queued_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        // Another process created it between our update and insert.
        if (!isUniqueViolation(error)) throw error;
        return (await update())!;
      }
    },

    /** An attempt failed and the next one (`attempt`, 1-based) is due at `nextAttemptAt`. */
    async markRetrying(
      date: string,
      attempt: number,
      nextAttemptAt: string,
      lastError: string,
    ): Promise<void> {
      await db
        .updateTable('e2e_report_summaries')
        .set({ attempt, next_attempt_at: nextAttemptAt, last_error: lastError, updated_at: nowIso() })
        .where('date', '=', date)
        .where('status', '=', 'pending')
        .execute();
    },

    /** The figures saved by `saveReport(…, { ready: false })` and their alerts are in: publish them. */
    async markReady(date: string): Promise<void> {
      const now = nowIso();
      await db
        .updateTable('e2e_report_summaries')
        .set({
          status: 'ready',
          updated_at: now,
          ready_at: now,
          attempt: null,
          next_attempt_at: null,
          last_error: null,
          queued_at: null,
        })
        .where('date', '=', date)
        .execute();
    },

    /** Every attempt failed; the last ready version (if any) stays on the row. */
    async markFailed(date: string, attempts: number, lastError: string): Promise<void> {
      await db
        .updateTable('e2e_report_summaries')
        .set({
          status: 'failed',
          updated_at: nowIso(),
          attempt: attempts,
          next_attempt_at: null,
          last_error: lastError,
        })
        .where('date', '=', date)
        .execute();
    },
  };
}
