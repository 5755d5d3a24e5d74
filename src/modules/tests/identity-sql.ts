import type SqliteDatabase from 'better-sqlite3';

/** One batch of identities to find or create, as columns (cheaper to pass between threads). */
export interface IdentityBatch {
  id: number;
  appId: number;
  day: string;
  keys: string[];
  specs: string[];
  titles: string[];
  projects: string[];
}

/** Asks the writer to copy the WAL back into the file once the batches before it are written. */
export interface CheckpointRequest {
  id: number;
  checkpoint: true;
}

export type WriterRequest = IdentityBatch | CheckpointRequest;

/** The row ids of a batch's identities, in the order of its keys (0 for none). */
export type IdentityReply =
  { id: number; ids: Int32Array } | { id: number; error: { message: string; code?: string } };

/** Largest list per statement: 6 parameters a row stays well under SQLite's 32,766. */
const CHUNK = 512;

/**
 * Sizes a list of `length` is cut into: whole chunks, then powers of two. Every statement is
 * prepared once per size, so a handful of shapes serve any batch, and rows keep their order.
 */
export function chunkSizes(length: number): number[] {
  const sizes: number[] = [];
  let rest = length;
  while (rest >= CHUNK) {
    sizes.push(CHUNK);
    rest -= CHUNK;
  }
  for (let size = CHUNK / 2; size >= 1; size /= 2) {
    if (rest >= size) {
      sizes.push(size);
      rest -= size;
    }
  }
  return sizes;
}

const marks = (count: number, mark: string) => Array.from({ length: count }, () => mark).join(',');

/**
 * The repository's resolveIdentities in plain SQLite statements for one connection: read the
 * known rows, insert the missing ones in their order (a row a racing upload inserted first wins
 * the conflict and is read back), then move `last_seen` of the known ones to the day. One
 * immediate transaction per batch: the write lock is taken at its start, so the reads it makes
 * first can never turn out stale when it comes to write.
 */
export function identitySql(database: SqliteDatabase.Database) {
  const prepared = new Map<string, SqliteDatabase.Statement>();
  const statement = (kind: 'select' | 'insert' | 'touch', size: number) => {
    const name = `${kind}:${size}`;
    let found = prepared.get(name);
    if (!found) {
      found = database.prepare(
        kind === 'select'
          ? `select "id", "key" from "test_identities" where "app_id" = ? and "key" in (${marks(size, '?')})`
          : kind === 'insert'
            ? `insert into "test_identities" ("app_id", "key", "spec", "title", "project", "last_seen") values ${marks(size, '(?, ?, ?, ?, ?, ?)')} on conflict ("app_id", "key") do nothing returning "id", "key"`
            : `update "test_identities" set "last_seen" = ? where "id" in (${marks(size, '?')}) and "last_seen" < ?`,
      );
      prepared.set(name, found);
    }
    return found;
  };

  function select(appId: number, keys: readonly string[], into: Map<string, number>) {
    let at = 0;
    for (const size of chunkSizes(keys.length)) {
      const rows = statement('select', size).all(appId, ...keys.slice(at, at + size)) as {
        id: number;
        key: string;
      }[];
      for (const row of rows) into.set(row.key, row.id);
      at += size;
    }
  }

  function insert(batch: IdentityBatch, rows: readonly number[], into: Map<string, number>) {
    let at = 0;
    for (const size of chunkSizes(rows.length)) {
      const values: (string | number)[] = [];
      for (const row of rows.slice(at, at + size)) {
        values.push(
          batch.appId,
          batch.keys[row]!,
          batch.specs[row]!,
          batch.titles[row]!,
          batch.projects[row]!,
          batch.day,
        );
      }
      for (const row of statement('insert', size).all(...values) as { id: number; key: string }[]) {
        into.set(row.key, row.id);
      }
      at += size;
    }
  }

  function touch(ids: readonly number[], day: string) {
    let at = 0;
    for (const size of chunkSizes(ids.length)) {
      statement('touch', size).run(day, ...ids.slice(at, at + size), day);
      at += size;
    }
  }

  const resolveOne = (batch: IdentityBatch): { ids: Int32Array } => {
    const ids = new Map<string, number>();
    select(batch.appId, batch.keys, ids);
    const seen = [...ids.values()];
    const missing: number[] = [];
    batch.keys.forEach((key, row) => {
      if (!ids.has(key)) missing.push(row);
    });
    insert(batch, missing, ids);
    const raced = missing.map((row) => batch.keys[row]!).filter((key) => !ids.has(key));
    if (raced.length > 0) select(batch.appId, raced, ids);
    touch(seen, batch.day);
    return { ids: Int32Array.from(batch.keys, (key) => ids.get(key) ?? 0) };
  };
  const resolveAll = database.transaction((batches: readonly IdentityBatch[]) => batches.map(resolveOne));

  return {
    /** Each batch's ids, all of them written in one transaction. */
    resolve: (batches: readonly IdentityBatch[]) => resolveAll.immediate(batches),
  };
}
