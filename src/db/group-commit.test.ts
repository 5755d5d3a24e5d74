import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/test-database.js';
import type { DatabaseHandle } from './database.js';

describe('SQLite group commit', () => {
  let database: DatabaseHandle;
  const seen: string[][] = [];
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    database.writes.onWrite((tables) => seen.push([...tables].sort()));
  });
  afterAll(async () => database.close());
  beforeEach(async () => {
    await database.db.deleteFrom('todos').execute();
    seen.length = 0;
  });

  const now = new Date().toISOString();
  const todo = (title: string | null) => ({
    title: title as string,
    is_completed: 0 as never,
    created_at: now,
    updated_at: now,
  });
  const insert = (title: string | null) =>
    database.db.insertInto('todos').values(todo(title)).returning(['id', 'title']).executeTakeFirstOrThrow();
  const titles = async () =>
    (await database.db.selectFrom('todos').select('title').orderBy('id').execute()).map((row) => row.title);

  it('commits the writes of one event-loop turn together, told once, before any caller resumes', async () => {
    const writes = ['a', 'b', 'c'].map((title) =>
      insert(title).then((row) => {
        // Cache invalidation (the write event) has run for the whole batch by now.
        expect(seen).toEqual([['todos']]);
        return row;
      }),
    );
    const rows = await Promise.all(writes);
    expect(rows.map((row) => row.title)).toEqual(['a', 'b', 'c']);
    expect(new Set(rows.map((row) => row.id)).size).toBe(3);
    expect(seen).toEqual([['todos']]);
    expect(await titles()).toEqual(['a', 'b', 'c']);
  });

  it('fails only the write that fails; the others of its batch commit', async () => {
    const results = await Promise.allSettled([insert('kept 1'), insert(null), insert('kept 2')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/NOT NULL/);
    expect(await titles()).toEqual(['kept 1', 'kept 2']);
  });

  it('runs the batch again write by write when an error ends its transaction', async () => {
    const { id } = await insert('existing');
    seen.length = 0;
    // OR ROLLBACK ends the whole transaction on a conflict, undoing the batch's other writes too.
    const conflicting = database.db
      .insertInto('todos')
      .orRollback()
      .values({ ...todo('duplicate id'), id })
      .execute();
    const results = await Promise.allSettled([insert('before'), conflicting, insert('after')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await titles()).toEqual(['existing', 'before', 'after']);
    expect(seen).toEqual([['todos'], ['todos']]);
  });

  it('keeps writes outside a transaction out of a transaction that is open meanwhile', async () => {
    const transaction = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('todos').values(todo('in the transaction')).execute();
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('roll back');
    });
    const outside = insert('outside');
    await expect(transaction).rejects.toThrow('roll back');
    await outside;
    expect(await titles()).toEqual(['outside']);
  });

  it('lets a read issued with the writes run, and later reads see them', async () => {
    const [, count] = await Promise.all([
      insert('x'),
      database.db
        .selectFrom('todos')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    expect(Number(count.n)).toBeLessThanOrEqual(1);
    expect(await titles()).toEqual(['x']);
  });
});
