import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { deleteById } from '../../db/delete-by-id.js';
import { fromDbBoolean, isStorableId, parseJson, toCount, toDbBoolean } from '../../db/errors.js';
import type { NotificationsTable } from '../../db/schema.js';
import { nowIso } from '../../shared/time.js';

/** A stored notification as the service sees it: `is_read` a boolean, `data` parsed JSON. */
export type NotificationRow = Omit<Selectable<NotificationsTable>, 'is_read' | 'data'> & {
  is_read: boolean;
  data: Record<string, unknown> | null;
};

const decode = (row: Selectable<NotificationsTable>): NotificationRow => ({
  ...row,
  is_read: fromDbBoolean(row.is_read),
  data: parseJson<Record<string, unknown>>(row.data),
});

export interface NotificationWrite {
  title: string;
  message: string;
  type: string;
  /** JSON text or null. */
  data: string | null;
  isRead: boolean;
}

export interface NotificationFilter {
  isRead?: boolean;
  type?: string;
}

export function createNotificationsRepository(db: Db) {
  const filtered = (filter: NotificationFilter) => {
    let query = db.selectFrom('notifications');
    if (filter.isRead !== undefined) query = query.where('is_read', '=', toDbBoolean(filter.isRead));
    if (filter.type !== undefined) query = query.where('type', '=', filter.type);
    return query;
  };

  async function findById(id: number): Promise<NotificationRow | undefined> {
    if (!isStorableId(id)) return undefined;
    const row = await db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
    return row && decode(row);
  }

  return {
    /** Newest first by default; the id breaks ties between notifications of the same millisecond. */
    async list(filter: NotificationFilter, limit: number, offset: number, order: 'asc' | 'desc') {
      const [rows, count] = await Promise.all([
        filtered(filter)
          .selectAll()
          .orderBy('created_at', order)
          .orderBy('id', order)
          .limit(limit)
          .offset(offset)
          .execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(decode), total: toCount(count.total) };
    },

    findById,

    async create(input: NotificationWrite): Promise<NotificationRow> {
      const row = await db
        .insertInto('notifications')
        .values({
          title: input.title,
          message: input.message,
          type: input.type,
          data: input.data,
          is_read: toDbBoolean(input.isRead),
          created_at: nowIso(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return decode(row);
    },

    async update(id: number, patch: Partial<NotificationWrite>): Promise<NotificationRow | undefined> {
      if (!isStorableId(id)) return undefined;
      const values = {
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.message !== undefined ? { message: patch.message } : {}),
        ...(patch.type !== undefined ? { type: patch.type } : {}),
        ...(patch.data !== undefined ? { data: patch.data } : {}),
        ...(patch.isRead !== undefined ? { is_read: toDbBoolean(patch.isRead) } : {}),
      };
      if (Object.keys(values).length === 0) return findById(id);
      const row = await db
        .updateTable('notifications')
        .set(values)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && decode(row);
    },

    /** Marks every unread notification (of one type, when given) read; returns how many. */
    async markAllRead(type?: string): Promise<number> {
      let query = db
        .updateTable('notifications')
        .set({ is_read: toDbBoolean(true) })
        .where('is_read', '=', toDbBoolean(false));
      if (type !== undefined) query = query.where('type', '=', type);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    delete(id: number): Promise<boolean> {
      return deleteById(db, 'notifications', id);
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
