import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId } from '../../db/errors.js';
import type { TestIdentitiesTable } from '../../db/schema-results.js';
import type { IdentityToResolve } from './test-recorder.js';
import { specsWithTheirUpload } from '../test-results/test-results.repository.js';

export type IdentityRow = Selectable<TestIdentitiesTable>;

/** A spec row of an upload with its packed results and what its run says. */
export interface PackedSpecRow {
  upload_id: number;
  run_number: number;
  attempt: number;
  created_at: string;
  commit_sha: string | null;
  branch: string | null;
  run_url: string | null;
  spec: string;
  results: Buffer | Uint8Array | null;
}

export interface FailureTextRow {
  upload_id: number;
  identity_id: number | null;
  message: string;
  stack: string;
  location: string | null;
}

/** Ids or keys per `IN (…)` list: well under both dialects' bound-parameter limits. */
const BATCH = 500;
/** Identity rows per INSERT: 5 bound parameters each, 10,000 in all (SQLite allows 32,766). */
const INSERT_ROWS = 2000;

function* batches<T>(items: readonly T[], size = BATCH): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

export function createTestsRepository(db: Db) {
  const packedColumns = () => specsWithTheirUpload(db).select(['u.run_url', 's.results']);

  async function idsByKey(on: Db, appId: number, keys: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (const batch of batches(keys, INSERT_ROWS)) {
      const rows = await on
        .selectFrom('test_identities')
        .select(['id', 'key'])
        .where('app_id', '=', appId)
        .where('key', 'in', batch)
        .execute();
      for (const row of rows) found.set(row.key, row.id);
    }
    return found;
  }

  return {
    async findSummary(summaryId: number): Promise<{ date: string } | undefined> {
      if (!isStorableId(summaryId)) return undefined;
      return db
        .selectFrom('e2e_report_summaries')
        .select('date')
        .where('id', '=', summaryId)
        .executeTakeFirst();
    },

    async appExists(appId: number): Promise<boolean> {
      if (!isStorableId(appId)) return false;
      return (
        (await db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst()) !== undefined
      );
    },

    /**
     * The ids of an app's identities, created when missing (a racing upload's insert wins, and
     * both read the same row), their `last_seen` moved to `day`.
     */
    async resolveIdentities(
      appId: number,
      identities: readonly IdentityToResolve[],
      day: string,
    ): Promise<Map<string, number>> {
      // One transaction: one commit for the whole batch instead of one per statement.
      return db.transaction().execute(async (trx) => {
        const ids = await idsByKey(
          trx,
          appId,
          identities.map((identity) => identity.key),
        );
        const seen = [...ids.values()];
        const missing = identities.filter((identity) => !ids.has(identity.key));
        // One statement per INSERT_ROWS rows (5 parameters a row, under both dialects' limits); a
        // racing upload's row wins the conflict and is read back below, as is every new row.
        for (const batch of batches(missing, INSERT_ROWS)) {
          await trx
            .insertInto('test_identities')
            .values(
              batch.map(({ key, spec, title, project }) => ({
                app_id: appId,
                key,
                spec,
                title,
                project,
                last_seen: day,
              })),
            )
            .onConflict((conflict) => conflict.columns(['app_id', 'key']).doNothing())
            .execute();
        }
        const created = missing.map((identity) => identity.key);
        for (const [key, id] of await idsByKey(trx, appId, created)) ids.set(key, id);
        for (const batch of batches(seen)) {
          await trx
            .updateTable('test_identities')
            .set({ last_seen: day })
            .where('id', 'in', batch)
            .where('last_seen', '<', day)
            .execute();
        }
        return ids;
      });
    },

    async identitiesByKeys(appId: number, keys: readonly string[]): Promise<IdentityRow[]> {
      const rows: IdentityRow[] = [];
      for (const batch of batches(keys)) {
        rows.push(
          ...(await db
            .selectFrom('test_identities')
            .selectAll()
            .where('app_id', '=', appId)
            .where('key', 'in', batch)
            .execute()),
        );
      }
      return rows;
    },

    async identitiesByIds(ids: readonly number[]): Promise<IdentityRow[]> {
      const rows: IdentityRow[] = [];
      for (const batch of batches(ids)) {
        rows.push(...(await db.selectFrom('test_identities').selectAll().where('id', 'in', batch).execute()));
      }
      return rows;
    },

    /** Whether an app has an upload created in [fromIso, toIso). */
    async hasUploadsIn(appId: number, fromIso: string, toIso: string): Promise<boolean> {
      const row = await db
        .selectFrom('test_result_uploads')
        .select('id')
        .where('app_id', '=', appId)
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The run of an app's latest upload that holds a spec. */
    async latestRunOfSpec(appId: number, spec: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('test_result_specs as s')
        .innerJoin('test_result_uploads as u', 'u.id', 's.upload_id')
        .select('u.run_number')
        .where('s.spec', '=', spec)
        .where('u.app_id', '=', appId)
        .orderBy('u.created_at', 'desc')
        .orderBy('u.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.run_number;
    },

    /** The spec rows of every upload of one run of an app. */
    async specRowsOfRun(appId: number, runNumber: number): Promise<PackedSpecRow[]> {
      return packedColumns()
        .where('u.app_id', '=', appId)
        .where('u.run_number', '=', runNumber)
        .orderBy('s.id')
        .execute();
    },

    /** The spec rows of an app's uploads created in [fromIso, toIso), by upload then spec. */
    async specRowsIn(appId: number, fromIso: string, toIso: string): Promise<PackedSpecRow[]> {
      return packedColumns()
        .where('u.app_id', '=', appId)
        .where('u.created_at', '>=', fromIso)
        .where('u.created_at', '<', toIso)
        .orderBy('u.created_at')
        .orderBy('s.id')
        .execute();
    },

    /** The rows of some specs of an app, optionally of one branch and since a time. */
    async specRowsOf(
      appId: number,
      specs: readonly string[],
      filter: {
        branch?: string | undefined;
        sinceIso?: string | undefined;
        untilIso?: string | undefined;
      } = {},
    ): Promise<PackedSpecRow[]> {
      const rows: PackedSpecRow[] = [];
      for (const batch of batches(specs)) {
        let query = packedColumns().where('s.spec', 'in', batch).where('u.app_id', '=', appId);
        if (filter.branch !== undefined) query = query.where('u.branch', '=', filter.branch);
        if (filter.sinceIso !== undefined) query = query.where('u.created_at', '>=', filter.sinceIso);
        if (filter.untilIso !== undefined) query = query.where('u.created_at', '<', filter.untilIso);
        rows.push(...(await query.orderBy('u.created_at').orderBy('s.id').execute()));
      }
      return rows;
    },

    /** The failure texts of some identities in some uploads. */
    async failuresOf(
      uploadIds: readonly number[],
      identityIds: readonly number[],
    ): Promise<FailureTextRow[]> {
      if (identityIds.length === 0) return [];
      const rows: FailureTextRow[] = [];
      for (const uploads of batches(uploadIds)) {
        for (const identities of batches(identityIds)) {
          rows.push(
            ...(await db
              .selectFrom('test_result_failures')
              .select(['upload_id', 'identity_id', 'message', 'stack', 'location'])
              .where('upload_id', 'in', uploads)
              .where('identity_id', 'in', identities)
              .orderBy('id')
              .execute()),
          );
        }
      }
      return rows;
    },
  };
}

export type TestsRepository = ReturnType<typeof createTestsRepository>;
