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
  };
}
