import { DummyDriver, Kysely, sql, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../support/databases.js';
import type { DatabaseHandle } from '../../../src/db/database.js';
import type { Database } from '../../../src/db/schema.js';
import { ALL_TABLES, writtenTables } from '../../../src/db/write-tracking.js';

describe('writtenTables', () => {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  const insert = (title: string) =>
    db
      .insertInto('todos')
      .values({ title, is_completed: 0 as never, created_at: '', updated_at: '' })
      .returningAll()
      .compile();

  it('answers a repeated write from its SQL text, without walking its tree again', () => {
    const first = writtenTables(insert('a'));
    expect(first).toEqual(new Set(['todos']));
    expect(writtenTables(insert('b'))).toBe(first);
    expect(writtenTables(db.deleteFrom('apps').where('id', 'in', [1, 2]).compile())).toEqual(
      new Set(['apps']),
    );
  });

  it('finds nothing in reads, read-only WITH clauses included, and every table in raw writes', () => {
    expect(writtenTables(db.selectFrom('todos').selectAll().compile())).toBeUndefined();
    const withRead = db
      .with('recent', (w) => w.selectFrom('todos').select('id'))
      .selectFrom('recent')
      .selectAll()
      .compile();
    expect(writtenTables(withRead)).toBeUndefined();
    expect(writtenTables(withRead)).toBeUndefined();
    expect(writtenTables(sql`delete from todos`.compile(db))).toEqual(new Set([ALL_TABLES]));
    expect(writtenTables(sql`select 1`.compile(db))).toBeUndefined();
  });
});

describe.each(DIALECTS)('committed-write events (%s)', (dialect) => {
  let database: DatabaseHandle;
  const seen: string[][] = [];
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    database.writes.onWrite((tables) => seen.push([...tables].sort()));
  });
  afterAll(async () => database.close());

  const now = new Date().toISOString();
  const todo = (title: string) => ({
    title,
    is_completed: dialect === 'sqlite' ? 0 : (false as never),
    created_at: now,
    updated_at: now,
  });

  it('names the table of each insert, update and delete, and nothing for reads', async () => {
    seen.length = 0;
    await database.db.insertInto('todos').values(todo('a')).execute();
    await database.db.selectFrom('todos').selectAll().execute();
    await database.db.updateTable('todos').set({ title: 'b' }).execute();
    await database.db.deleteFrom('todos').execute();
    expect(seen).toEqual([['todos'], ['todos'], ['todos']]);
  });

  it('tells a transaction once, after it commits, and never a rolled-back one', async () => {
    seen.length = 0;
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('todos').values(todo('in transaction')).execute();
      await trx.deleteFrom('apps').execute();
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([['apps', 'todos']]);

    seen.length = 0;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('todos').values(todo('rolled back')).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(seen).toEqual([]);
  });

  it("tells a write committed on another of the process's connections as it is told of it", () => {
    seen.length = 0;
    database.writes.committedElsewhere(['test_identities']);
    expect(seen).toEqual([['test_identities']]);
  });

  it('tells raw SQL writes as a write to every table', async () => {
    seen.length = 0;
    await sql`delete from todos`.execute(database.db);
    await sql`select 1`.execute(database.db);
    expect(seen).toEqual([[ALL_TABLES]]);
  });
});

// SQLite has no data-modifying WITH clauses; PostgreSQL runs this whenever it is available.
describe.each(DIALECTS.filter((dialect) => dialect === 'postgres'))('WITH-clause writes (%s)', (dialect) => {
  it('names the table a data-modifying WITH clause writes', async () => {
    const database = await openTestDatabase(dialect);
    try {
      const seen: string[][] = [];
      const now = new Date().toISOString();
      await database.db
        .insertInto('todos')
        .values({ title: 'to remove', is_completed: false as never, created_at: now, updated_at: now })
        .execute();
      database.writes.onWrite((tables) => seen.push([...tables].sort()));
      await database.db
        .with('removed', (db) => db.deleteFrom('todos').returning('id'))
        .selectFrom('removed')
        .selectAll()
        .execute();
      expect(seen).toEqual([['todos']]);
    } finally {
      await database.close();
    }
  });
});
