import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { identityDatabase, identityOf as identity } from '../../../test/support/identity-fixtures.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createIdentityWriter, type IdentityWriter } from './identity-writer.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function setUp(
  migrated = true,
): Promise<{ handle: DatabaseHandle; writer: IdentityWriter; commits: number[] }> {
  const { handle, remove } = await identityDatabase(migrated);
  cleanup.push(remove);
  const commits: number[] = [];
  const writer = createIdentityWriter({ filename: handle.sqliteFile!, onCommit: () => commits.push(1) });
  cleanup.push(() => writer.close());
  return { handle, writer, commits };
}

describe('identity writer thread', () => {
  it('resolves batches on its own connection, in the order asked, and tells of each commit', async () => {
    const { handle, writer, commits } = await setUp();
    const first = writer.resolve(1, [identity('a'), identity('b')], '2026-11-28');
    const second = writer.resolve(1, [identity('b'), identity('c')], '2026-11-28');
    expect([...(await first)]).toEqual([1, 2]);
    expect([...(await second)]).toEqual([2, 3]);
    expect(commits).toHaveLength(2);
    const rows = await handle.db
      .selectFrom('test_identities')
      .select(['id', 'title'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
      { id: 3, title: 'c' },
    ]);
  });

  it('copies the WAL back into the file when asked to settle, so the next commit restarts it', async () => {
    const { handle, writer, commits } = await setUp();
    const many = Array.from({ length: 300 }, (_, index) => identity(`t${index}`));
    await writer.resolve(1, many, '2026-11-28');
    await writer.settle();
    expect(commits).toHaveLength(1);
    await handle.db.updateTable('apps').set({ name: 'shop 2' }).execute();
    const [frames] = (await sql<{ log: number }>`PRAGMA wal_checkpoint(PASSIVE)`.execute(handle.db)).rows;
    // Only the last commit's pages are in the WAL: the thread's were copied back and dropped.
    expect(frames!.log).toBeLessThan(10);
  });

  it("rejects with SQLite's code when the statements fail, and starts again after close", async () => {
    const { writer } = await setUp(false);
    await expect(writer.resolve(1, [identity('a')], '2026-11-28')).rejects.toMatchObject({
      message: expect.stringMatching(/no such table/),
      code: 'SQLITE_ERROR',
    });
    await writer.close();
    await expect(writer.resolve(1, [identity('a')], '2026-11-28')).rejects.toMatchObject({
      code: 'SQLITE_ERROR',
    });
  });
});
