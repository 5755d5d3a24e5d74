import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, toCount } from '../../db/errors.js';
import { pageWithTotal } from '../../db/paging.js';
import type { QuarantinesTable } from '../../db/schema.js';
import type { LiftedReason } from './quarantine.schema.js';

export type QuarantineRow = Selectable<QuarantinesTable>;

export interface NewQuarantine {
  appId: number;
  spec: string;
  /** The title path of one test of the spec; '' for the whole spec. */
  test: string;
  reason: string;
  ticketKey: string | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface QuarantineFilter {
  appId?: number;
  active?: boolean;
  /** Only these applications (an upload key limited to them); empty matches nothing. */
  appIds?: readonly number[];
}

/** Stored quarantines; the only place their SQL lives. */
export function createQuarantineRepository(db: Db) {
  const filtered = (filter: QuarantineFilter) => {
    let query = db.selectFrom('quarantines');
    if (filter.appId !== undefined) query = query.where('app_id', '=', filter.appId);
    if (filter.appIds !== undefined) {
      query =
        filter.appIds.length === 0
          ? query.where(sql<boolean>`1 = 0`)
          : query.where('app_id', 'in', [...filter.appIds]);
    }
    if (filter.active === true) query = query.where('lifted_at', 'is', null);
    if (filter.active === false) query = query.where('lifted_at', 'is not', null);
    return query;
  };

  return {
    async insert(values: NewQuarantine): Promise<QuarantineRow> {
      const row = {
        app_id: values.appId,
        spec: values.spec,
        test: values.test,
        reason: values.reason,
        ticket_key: values.ticketKey,
        expires_at: values.expiresAt,
        created_at: values.createdAt,
      };
      return db.insertInto('quarantines').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async findById(id: number): Promise<QuarantineRow | undefined> {
      if (!isStorableId(id)) return undefined;
      return db.selectFrom('quarantines').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Newest first (creation instant, then id). */
    async list(filter: QuarantineFilter, limit: number, offset: number) {
      return pageWithTotal(
        { limit, offset },
        () =>
          filtered(filter)
            .selectAll()
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(limit)
            .offset(offset)
            .execute(),
        async () =>
          toCount(
            (
              await filtered(filter)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirst()
            )?.n,
          ),
      );
    },

    /** Active quarantines, optionally of one app. */
    async listActive(appId?: number): Promise<QuarantineRow[]> {
      return filtered({ active: true, ...(appId !== undefined ? { appId } : {}) })
        .selectAll()
        .orderBy('id')
        .execute();
    },

    /**
     * Lifts an active quarantine; false when it was not active any more (already lifted by a
     * concurrent request or review), so one lift is reported once.
     */
    async lift(id: number, liftedAt: string, reason: LiftedReason): Promise<boolean> {
      if (!isStorableId(id)) return false;
      const result = await db
        .updateTable('quarantines')
        .set({ lifted_at: liftedAt, lifted_reason: reason })
        .where('id', '=', id)
        .where('lifted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The spec and title path of an app's test by its testId. */
    async testById(appId: number, testId: string): Promise<{ spec: string; title: string } | undefined> {
      return db
        .selectFrom('test_identities')
        .select(['spec', 'title'])
        .where('app_id', '=', appId)
        .where('key', '=', testId)
        .executeTakeFirst();
    },

    async appNames(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('apps')
        .select(['id', 'name'])
        .where('id', 'in', [...ids])
        .execute();
      return new Map(rows.map((row) => [row.id, row.name]));
    },
  };
}

export type QuarantineRepository = ReturnType<typeof createQuarantineRepository>;
