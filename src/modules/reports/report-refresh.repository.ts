import type { Db } from '../../db/database.js';

/**
 * The report dates uploads asked to regenerate (`report_refreshes`): one row per date, due at the
 * time its first upload set. Shared by every process through the database: an upload adds to
 * the row already waiting, a worker claims a due row exactly once.
 */
export function createReportRefreshRepository(db: Db) {
  return {
    /** The dates among [from, to] that have a report (any status). */
    async reportDatesBetween(from: string, to: string): Promise<string[]> {
      const rows = await db
        .selectFrom('e2e_report_summaries')
        .select('date')
        .where('date', '>=', from)
        .where('date', '<=', to)
        .orderBy('date')
        .execute();
      return rows.map((row) => row.date);
    },

    /**
     * Asks for each date to be regenerated at `dueAt`; a date already waiting keeps its (earlier)
     * due time, so uploads arriving meanwhile join the regeneration already asked for.
     */
    async request(dates: readonly string[], dueAt: string, requestedAt: string): Promise<void> {
      if (dates.length === 0) return;
      await db
        .insertInto('report_refreshes')
        .values(dates.map((date) => ({ date, due_at: dueAt, requested_at: requestedAt })))
        .onConflict((conflict) => conflict.column('date').doNothing())
        .execute();
    },

    /**
     * Takes the dates due at `now` (oldest first, at most `limit`) out of the table and returns
     * them. One statement: of several workers claiming at once, each date goes to one.
     */
    async claimDue(now: string, limit: number): Promise<string[]> {
      const rows = await db
        .deleteFrom('report_refreshes')
        .where('date', 'in', (eb) =>
          eb
            .selectFrom('report_refreshes')
            .select('date')
            .where('due_at', '<=', now)
            .orderBy('due_at')
            .limit(limit),
        )
        .where('due_at', '<=', now)
        .returning('date')
        .execute();
      return rows.map((row) => row.date).sort();
    },

    /** The dates waiting (tests, the queue's state). */
    async waiting(): Promise<{ date: string; due_at: string }[]> {
      return db.selectFrom('report_refreshes').select(['date', 'due_at']).orderBy('date').execute();
    },
  };
}

export type ReportRefreshRepository = ReturnType<typeof createReportRefreshRepository>;
