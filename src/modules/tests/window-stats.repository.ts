import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { toCount } from '../../db/errors.js';
import type { TestWindowTestsTable } from '../../db/schema-results.js';
import type { TestFilter } from './tests.schema.js';

export type WindowTestRow = Selectable<TestWindowTestsTable>;
export type NewWindowTestRow = Insertable<TestWindowTestsTable>;

/** A stored test's figures with its identity. */
export type WindowTestItemRow = WindowTestRow & { key: string; spec: string; title: string; project: string };

/** An upload of a window, with what the figures say of its run. */
export interface WindowUploadRow {
  id: number;
  run_number: number;
  attempt: number;
  created_at: string;
  commit_sha: string | null;
  run_url: string | null;
}

/** Where a report's stored tests are: its summary and the app. */
export interface WindowKey {
  summaryId: number;
  appId: number;
}

export interface WindowFilter {
  spec?: string | undefined;
  status?: TestFilter | undefined;
}

/** Ids per `IN (…)` list, and rows per INSERT: 20 parameters a row, under SQLite's 32,766. */
const BATCH = 500;
const INSERT_ROWS = 1000;

function* batches<T>(items: readonly T[], size = BATCH): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * What a read tells apart the window's uploads by: count, newest id and the sum of their ids (ids
 * only grow, so an upload that joins changes the newest or the count, one that leaves the count).
 */
export const fingerprintOf = (ids: readonly number[]) =>
  `${ids.length}:${ids.reduce((max, id) => Math.max(max, id), 0)}:${ids.reduce((sum, id) => sum + id, 0)}`;

export function createWindowStatsRepository(db: Db) {
  const stored = ({ summaryId, appId }: WindowKey, filter: WindowFilter) => {
    let query = db
      .selectFrom('test_window_tests as t')
      .innerJoin('test_identities as i', 'i.id', 't.identity_id')
      .where('t.report_summary_id', '=', summaryId)
      .where('t.app_id', '=', appId);
    if (filter.spec !== undefined) query = query.where('i.spec', '=', filter.spec);
    if (filter.status === 'failing') query = query.where('t.last_status', '=', 'failed');
    if (filter.status === 'skipped') query = query.where('t.last_status', '=', 'skipped');
    if (filter.status === 'flaky') query = query.where('t.is_flaky', '=', 1);
    return query;
  };
  const itemColumns = ['i.key', 'i.spec', 'i.title', 'i.project'] as const;

  return {
    /** The fingerprint of an app's uploads created in [fromIso, toIso) (the index alone answers). */
    async fingerprintIn(appId: number, fromIso: string, toIso: string): Promise<string> {
      const row = await db
        .selectFrom('test_result_uploads')
        .select((eb) => [
          eb.fn.countAll().as('count'),
          eb.fn.max('id').as('newest'),
          eb.fn.sum('id').as('sum'),
        ])
        .where('app_id', '=', appId)
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .executeTakeFirstOrThrow();
      return `${toCount(row.count)}:${toCount(row.newest ?? 0)}:${toCount(row.sum ?? 0)}`;
    },

    /** An app's uploads created in [fromIso, toIso), oldest first. */
    async uploadsIn(appId: number, fromIso: string, toIso: string): Promise<WindowUploadRow[]> {
      return db
        .selectFrom('test_result_uploads')
        .select(['id', 'run_number', 'attempt', 'created_at', 'commit_sha', 'run_url'])
        .where('app_id', '=', appId)
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async uploadsByIds(ids: readonly number[]): Promise<WindowUploadRow[]> {
      const rows: WindowUploadRow[] = [];
      for (const batch of batches(ids)) {
        rows.push(
          ...(await db
            .selectFrom('test_result_uploads')
            .select(['id', 'run_number', 'attempt', 'created_at', 'commit_sha', 'run_url'])
            .where('id', 'in', batch)
            .execute()),
        );
      }
      return rows;
    },

    /** The packed spec rows of some uploads, in the order they were stored. */
    async packedRowsOf(
      uploadIds: readonly number[],
    ): Promise<{ id: number; upload_id: number; results: Buffer | Uint8Array | null }[]> {
      const rows: { id: number; upload_id: number; results: Buffer | Uint8Array | null }[] = [];
      for (const batch of batches(uploadIds)) {
        rows.push(
          ...(await db
            .selectFrom('test_result_specs')
            .select(['id', 'upload_id', 'results'])
            .where('upload_id', 'in', batch)
            .orderBy('id')
            .execute()),
        );
      }
      return rows;
    },

    /** The apps with an upload created in [fromIso, toIso). */
    async appsWithUploadsIn(fromIso: string, toIso: string): Promise<number[]> {
      const rows = await db
        .selectFrom('test_result_uploads')
        .select('app_id')
        .distinct()
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .execute();
      return rows.map((row) => row.app_id);
    },

    async summaryOfDate(date: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('e2e_report_summaries')
        .select('id')
        .where('date', '=', date)
        .executeTakeFirst();
      return row?.id;
    },

    async fingerprint({ summaryId, appId }: WindowKey): Promise<string | undefined> {
      const row = await db
        .selectFrom('test_window_states')
        .select('fingerprint')
        .where('report_summary_id', '=', summaryId)
        .where('app_id', '=', appId)
        .executeTakeFirst();
      return row?.fingerprint;
    },

    /**
     * Replaces the stored tests of a report and app. The state row is written first: on
     * PostgreSQL its lock makes a second writer of the same window wait for this one.
     */
    async replace(key: WindowKey, fingerprint: string, rows: readonly NewWindowTestRow[]): Promise<void> {
      const { summaryId, appId } = key;
      await db.transaction().execute(async (trx) => {
        const state = { fingerprint, computed_at: new Date().toISOString() };
        await trx
          .insertInto('test_window_states')
          .values({ report_summary_id: summaryId, app_id: appId, ...state })
          .onConflict((conflict) => conflict.columns(['report_summary_id', 'app_id']).doUpdateSet(state))
          .execute();
        await trx
          .deleteFrom('test_window_tests')
          .where('report_summary_id', '=', summaryId)
          .where('app_id', '=', appId)
          .execute();
        for (const batch of batches(rows, INSERT_ROWS)) {
          await trx.insertInto('test_window_tests').values(batch).execute();
        }
      });
    },

    /** One page of the stored tests that pass the filter, in order, and how many pass it. */
    async page(
      key: WindowKey,
      filter: WindowFilter,
      page: { limit: number; offset: number },
    ): Promise<{ rows: WindowTestItemRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        stored(key, filter)
          .selectAll('t')
          .select(itemColumns)
          .orderBy('t.position')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        stored(key, filter)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: toCount(count.count) };
    },

    /** The position and title of every stored test that passes the filter, in order. */
    async titles(key: WindowKey, filter: WindowFilter): Promise<{ position: number; title: string }[]> {
      return stored(key, filter).select(['t.position', 'i.title']).orderBy('t.position').execute();
    },

    /** Per spec (of those asked): its stored tests, those whose last run failed or skipped, the flaky ones. */
    async countsBySpec(
      key: WindowKey,
      specs: readonly string[],
    ): Promise<Map<string, { total: number; failing: number; flaky: number; skipped: number }>> {
      const counts = new Map<string, { total: number; failing: number; flaky: number; skipped: number }>();
      for (const batch of batches([...new Set(specs)])) {
        const rows = await stored(key, {})
          .where('i.spec', 'in', batch)
          .select((eb) => [
            'i.spec',
            eb.fn.countAll().as('total'),
            eb.fn.sum(eb.case().when('t.last_status', '=', 'failed').then(1).else(0).end()).as('failing'),
            eb.fn.sum('t.is_flaky').as('flaky'),
            eb.fn.sum(eb.case().when('t.last_status', '=', 'skipped').then(1).else(0).end()).as('skipped'),
          ])
          .groupBy('i.spec')
          .execute();
        for (const row of rows) {
          counts.set(row.spec, {
            total: toCount(row.total),
            failing: toCount(row.failing),
            flaky: toCount(row.flaky),
            skipped: toCount(row.skipped),
          });
        }
      }
      return counts;
    },

    /** The stored tests at some positions, in order. */
    async atPositions(key: WindowKey, positions: readonly number[]): Promise<WindowTestItemRow[]> {
      if (positions.length === 0) return [];
      return stored(key, {})
        .selectAll('t')
        .select(itemColumns)
        .where('t.position', 'in', positions)
        .orderBy('t.position')
        .execute();
    },
  };
}

export type WindowStatsRepository = ReturnType<typeof createWindowStatsRepository>;
