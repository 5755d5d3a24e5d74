import type { Generated } from 'kysely';
import type { Db } from './database.js';
import { isStorableId } from './errors.js';
import type { Database } from './schema.js';

/** The tables whose rows are addressed by a generated integer `id`. */
export type TableWithId = {
  [Table in keyof Database]: Database[Table] extends { id: Generated<number> } ? Table : never;
}[keyof Database];

/**
 * Deletes one row by its id; false when there was none. An id no column can hold is answered
 * without asking the database, as the lookups do.
 */
export async function deleteById(db: Db, table: TableWithId, id: number): Promise<boolean> {
  if (!isStorableId(id)) return false;
  const result = await db.deleteFrom(table).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
