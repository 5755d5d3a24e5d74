import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface ResultsRetentionRepository {
  /**
   * Deletes, in one transaction, up to `limit` of the oldest uploads run before `cutoffIso` with
   * their spec rows (packed results) and failures; resolves with how many uploads went.
   */
  purgeUploads(cutoffIso: string, limit: number): Promise<number>;
  /**
   * Deletes, in one transaction, up to `limit` test identities last seen before `cutoffDay`
   * (YYYY-MM-DD) that no stored failure names; resolves with how many went.
   */
  purgeIdentities(cutoffDay: string, limit: number): Promise<number>;
  /**
   * Deletes, in one transaction, up to `limit` stored test figures (tests-list rows) of one report
   * dated before `beforeDate`, and that report's state once none is left; resolves with `limit`
   * while there was something to delete, 0 when nothing was left.
   */
  purgeWindows(beforeDate: string, limit: number): Promise<number>;
}

/** The retention's deletes: each call is one short write transaction, batches chosen by the caller. */
export function createResultsRetentionRepository(db: Kysely<Database>): ResultsRetentionRepository {
  return {
    purgeUploads: (cutoffIso, limit) =>
      db.transaction().execute(async (trx) => {
        // test_result_uploads_created_idx (created_at, id) serves this walk from the oldest.
        const rows = await trx
          .selectFrom('test_result_uploads')
          .select('id')
          .where('created_at', '<', cutoffIso)
          .orderBy('created_at')
          .orderBy('id')
          .limit(limit)
          .execute();
        if (rows.length === 0) return 0;
        const ids = rows.map((row) => row.id);
        // Children first: SQLite may run without foreign-key cascades.
        await trx.deleteFrom('test_result_failures').where('upload_id', 'in', ids).execute();
        await trx.deleteFrom('test_result_specs').where('upload_id', 'in', ids).execute();
        await trx.deleteFrom('test_result_uploads').where('id', 'in', ids).execute();
        return ids.length;
      }),
    purgeIdentities: (cutoffDay, limit) =>
      db.transaction().execute(async (trx) => {
        // test_identities_seen_idx (last_seen, id) finds them; a failure still stored keeps its
        // identity (test_result_failures_identity_idx answers the check).
        const rows = await trx
          .selectFrom('test_identities as i')
          .select('i.id')
          .where('i.last_seen', '<', cutoffDay)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('test_result_failures as f')
                  .select('f.id')
                  .whereRef('f.identity_id', '=', 'i.id'),
              ),
            ),
          )
          .orderBy('i.last_seen')
          .orderBy('i.id')
          .limit(limit)
          .execute();
        if (rows.length === 0) return 0;
        const ids = rows.map((row) => row.id);
        await trx.deleteFrom('test_identities').where('id', 'in', ids).execute();
        return ids.length;
      }),
    purgeWindows: (beforeDate, limit) =>
      db.transaction().execute(async (trx) => {
        const state = await trx
          .selectFrom('test_window_states as w')
          .innerJoin('e2e_report_summaries as r', 'r.id', 'w.report_summary_id')
          .select(['w.report_summary_id', 'w.app_id'])
          .where('r.date', '<', beforeDate)
          .limit(1)
          .executeTakeFirst();
        if (!state) return 0;
        const { report_summary_id: summaryId, app_id: appId } = state;
        // The last `limit` positions go now, the others in the next batches.
        const rows = await trx
          .selectFrom('test_window_tests')
          .select('position')
          .where('report_summary_id', '=', summaryId)
          .where('app_id', '=', appId)
          .orderBy('position', 'desc')
          .limit(limit)
          .execute();
        if (rows.length > 0) {
          await trx
            .deleteFrom('test_window_tests')
            .where('report_summary_id', '=', summaryId)
            .where('app_id', '=', appId)
            .where('position', '>=', rows.at(-1)!.position)
            .execute();
        }
        if (rows.length < limit) {
          await trx
            .deleteFrom('test_window_states')
            .where('report_summary_id', '=', summaryId)
            .where('app_id', '=', appId)
            .execute();
        }
        return limit;
      }),
  };
}
