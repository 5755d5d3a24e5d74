import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../support/databases.js';
import { createTodosRepository } from '../../../src/modules/todos/todos.repository.js';
import type { DatabaseHandle } from '../../../src/db/database.js';

describe.each(DIALECTS)('list pages and their totals (%s)', (dialect) => {
  let database: DatabaseHandle;
  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: ({ node }) => {
      queries += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    const now = new Date().toISOString();
    await database.db
      .insertInto('todos')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          title: `T${i}`,
          is_completed: dialect === 'sqlite' ? 0 : (false as never),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  });
  afterAll(async () => database.close());

  const list = async (limit: number, offset: number) => {
    queries = 0;
    const page = await createTodosRepository(database.db.withPlugin(counting), dialect).list(
      limit,
      offset,
      'asc',
    );
    return { rows: page.rows.length, total: page.total, queries };
  };

  it('skips the count query when the page ends the list', async () => {
    expect(await list(10, 0)).toEqual({ rows: 7, total: 7, queries: 1 });
    expect(await list(5, 5)).toEqual({ rows: 2, total: 7, queries: 1 });
  });

  it('counts when the page is full or lies past the end', async () => {
    expect(await list(5, 0)).toEqual({ rows: 5, total: 7, queries: 2 });
    expect(await list(7, 0)).toEqual({ rows: 7, total: 7, queries: 2 });
    expect(await list(5, 20)).toEqual({ rows: 0, total: 7, queries: 2 });
  });
});
