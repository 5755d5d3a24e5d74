import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, isUniqueViolation, toCount } from '../../db/errors.js';
import { pageWithTotal } from '../../db/paging.js';
import type {
  TestResultFailuresTable,
  TestResultSpecsTable,
  TestResultUploadsTable,
} from '../../db/schema-results.js';

export type UploadRow = Selectable<TestResultUploadsTable>;
export type FailureRow = Selectable<TestResultFailuresTable>;
export type UploadInsert = Omit<Insertable<TestResultUploadsTable>, 'id'>;
export type SpecInsert = Omit<Insertable<TestResultSpecsTable>, 'id' | 'upload_id'>;
export type FailureInsert = Omit<Insertable<TestResultFailuresTable>, 'id' | 'upload_id'>;

/** A stored spec of an uploaded run, with what the report needs of its run. */
export interface UploadedSpecRow {
  id: number;
  upload_id: number;
  app_id: number;
  run_number: number;
  attempt: number;
  created_at: string;
  author: string | null;
  triggered_by: string | null;
  spec: string;
  status: string;
  flaky: number;
  duration_ms: number | null;
  commit_sha: string | null;
  run_url: string | null;
  first_failure_message: string | null;
}

/** An upload of a report window, with what tells its run apart: attempt and crash. */
export interface WindowUploadRow {
  id: number;
  app_id: number;
  run_number: number;
  attempt: number;
  status: string;
  errors: string | null;
  created_at: string;
  author: string | null;
  triggered_by: string | null;
  commit_sha: string | null;
  run_url: string | null;
}

/** Ids per `IN (…)` list: well under both dialects' bound-parameter limits. */
const ID_BATCH = 500;

/** Rows per INSERT: well under both dialects' bound-parameter limits. */
const INSERT_BATCH = 200;

/**
 * SQLite answers synchronously, so thousands of rows in one go would hold the event loop for tens
 * of milliseconds: other requests get a turn between batches.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Stored spec rows with the upload each came in: the run, attempt, time, commit and branch that
 * every per-spec and per-test read needs beside its own columns (added with `.select`).
 */
export function specsWithTheirUpload(db: Db) {
  return db
    .selectFrom('test_result_specs as s')
    .innerJoin('test_result_uploads as u', 'u.id', 's.upload_id')
    .select([
      's.upload_id',
      'u.run_number',
      'u.attempt',
      'u.created_at',
      'u.commit_sha',
      'u.branch',
      's.spec',
    ]);
}

export function createTestResultsRepository(db: Db) {
  const specColumns = () =>
    specsWithTheirUpload(db).select([
      's.id',
      'u.app_id',
      'u.author',
      'u.triggered_by',
      's.status',
      's.flaky',
      's.duration_ms',
      'u.run_url',
      's.first_failure_message',
    ]);

  return {
    async findAppByCode(code: string): Promise<{ id: number; name: string } | undefined> {
      return db.selectFrom('apps').select(['id', 'name']).where('code', '=', code).executeTakeFirst();
    },

    async findByFile(appId: number, runNumber: number, digest: string): Promise<UploadRow | undefined> {
      return db
        .selectFrom('test_result_uploads')
        .selectAll()
        .where('app_id', '=', appId)
        .where('run_number', '=', runNumber)
        .where('digest', '=', digest)
        .executeTakeFirst();
    },

    /**
     * Stores an upload with its specs and failures in one transaction, so a failure stores
     * nothing. `created: false` when the same file of the same run was already there (a retried
     * upload racing the first one ends on the unique index).
     */
    async insert(
      upload: UploadInsert,
      specs: readonly SpecInsert[],
      failures: readonly FailureInsert[],
    ): Promise<{ row: UploadRow; created: boolean }> {
      try {
        const row = await db.transaction().execute(async (trx) => {
          const stored = await trx
            .insertInto('test_result_uploads')
            .values(upload)
            .returningAll()
            .executeTakeFirstOrThrow();
          for (let start = 0; start < specs.length; start += INSERT_BATCH) {
            const batch = specs.slice(start, start + INSERT_BATCH);
            await trx
              .insertInto('test_result_specs')
              .values(batch.map((spec) => ({ ...spec, upload_id: stored.id })))
              .execute();
            await nextTurn();
          }
          for (let start = 0; start < failures.length; start += INSERT_BATCH) {
            const batch = failures.slice(start, start + INSERT_BATCH);
            await trx
              .insertInto('test_result_failures')
              .values(batch.map((failure) => ({ ...failure, upload_id: stored.id })))
              .execute();
            await nextTurn();
          }
          return stored;
        });
        return { row, created: true };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const existing = await this.findByFile(upload.app_id, upload.run_number, upload.digest);
        if (!existing) throw error;
        return { row: existing, created: false };
      }
    },

    async list(options: { appId?: number; limit: number; offset: number }) {
      const base = () => {
        const query = db.selectFrom('test_result_uploads');
        return options.appId === undefined ? query : query.where('app_id', '=', options.appId);
      };
      return pageWithTotal(
        options,
        () =>
          base()
            .selectAll()
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(options.limit)
            .offset(options.offset)
            .execute(),
        async () =>
          toCount(
            (
              await base()
                .select((eb) => eb.fn.countAll().as('total'))
                .executeTakeFirstOrThrow()
            ).total as number | string,
          ),
      );
    },

    async findById(id: number): Promise<UploadRow | undefined> {
      if (!isStorableId(id)) return undefined;
      return db.selectFrom('test_result_uploads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async failuresOf(uploadId: number): Promise<FailureRow[]> {
      return db
        .selectFrom('test_result_failures')
        .selectAll()
        .where('upload_id', '=', uploadId)
        .orderBy('id')
        .execute();
    },

    /** Deletes an upload and its specs and failures; false when there was none. */
    async delete(id: number): Promise<boolean> {
      if (!isStorableId(id)) return false;
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('test_result_failures').where('upload_id', '=', id).execute();
        await trx.deleteFrom('test_result_specs').where('upload_id', '=', id).execute();
        const result = await trx.deleteFrom('test_result_uploads').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /** Which of `appIds` have an uploaded run created in [fromIso, toIso). */
    async appsWithUploads(appIds: readonly number[], fromIso: string, toIso: string): Promise<Set<number>> {
      if (appIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('test_result_uploads')
        .select('app_id')
        .distinct()
        .where('app_id', 'in', [...appIds])
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .execute();
      return new Set(rows.map((row) => row.app_id));
    },

    /** The uploads of the apps created in [fromIso, toIso): their runs, attempts and crashes. */
    async uploadsIn(appIds: readonly number[], fromIso: string, toIso: string): Promise<WindowUploadRow[]> {
      if (appIds.length === 0) return [];
      return db
        .selectFrom('test_result_uploads')
        .select([
          'id',
          'app_id',
          'run_number',
          'attempt',
          'status',
          'errors',
          'created_at',
          'author',
          'triggered_by',
          'commit_sha',
          'run_url',
        ])
        .where('app_id', 'in', [...appIds])
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .orderBy('id')
        .execute();
    },

    /** Every spec of the given uploads, by spec id. */
    async specsOfUploads(uploadIds: readonly number[]): Promise<UploadedSpecRow[]> {
      const rows: UploadedSpecRow[] = [];
      for (let start = 0; start < uploadIds.length; start += ID_BATCH) {
        const ids = uploadIds.slice(start, start + ID_BATCH);
        rows.push(...(await specColumns().where('s.upload_id', 'in', ids).orderBy('s.id').execute()));
      }
      return rows;
    },

    /** One page of the specs of uploads created in [fromIso, toIso), by spec id after `afterId`. */
    async specsPage(
      appIds: readonly number[],
      fromIso: string,
      toIso: string,
      afterId: number,
      limit: number,
    ): Promise<UploadedSpecRow[]> {
      return specColumns()
        .where('u.app_id', 'in', [...appIds])
        .where('u.created_at', '>=', fromIso)
        .where('u.created_at', '<', toIso)
        .where('s.id', '>', afterId)
        .orderBy('s.id')
        .limit(limit)
        .execute();
    },
  };
}

export type TestResultsRepository = ReturnType<typeof createTestResultsRepository>;
