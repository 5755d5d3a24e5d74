import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { identityDatabase, identityOf as identity } from '../../../test/support/identity-fixtures.js';
import type { DatabaseHandle } from '../../db/database.js';
import { chunkSizes, type IdentityBatch, identitySql } from './identity-sql.js';
import type { IdentityToResolve } from './test-recorder.js';
import { createTestsRepository } from './tests.repository.js';

function batchOf(identities: IdentityToResolve[], day: string, id = 1): IdentityBatch {
  return {
    id,
    appId: 1,
    day,
    keys: identities.map((item) => item.key),
    specs: identities.map((item) => item.spec),
    titles: identities.map((item) => item.title),
    projects: identities.map((item) => item.project),
  };
}

const removals: (() => Promise<void>)[] = [];
async function database(): Promise<DatabaseHandle> {
  const { handle, remove } = await identityDatabase();
  removals.push(remove);
  return handle;
}

afterEach(async () => {
  for (const remove of removals.splice(0)) await remove();
});

const rowsOf = (handle: DatabaseHandle) =>
  handle.db.selectFrom('test_identities').selectAll().orderBy('id').execute();

describe('identity SQL of the writer thread', () => {
  it('cuts lists into whole chunks, then powers of two, in order', () => {
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(1300)).toEqual([512, 512, 256, 16, 4]);
    expect(chunkSizes(1300).reduce((sum, size) => sum + size, 0)).toBe(1300);
  });

  it('stores exactly what the repository stores: ids, rows and last_seen, batch after batch', async () => {
    const [viaRepository, viaThread] = [await database(), await database()];
    const repository = createTestsRepository(viaRepository.db);
    const connection = new SqliteDatabase(viaThread.sqliteFile);
    const sql = identitySql(connection);
    const many = Array.from({ length: 700 }, (_, index) => identity(`t${index}`));
    const steps: [IdentityToResolve[], string][] = [
      [many.slice(0, 600), '2026-11-27'],
      [[...many.slice(500), identity('t1')], '2026-11-27'],
      [[identity('t0'), identity('t650'), identity('new')], '2026-11-28'],
    ];
    for (const [identities, day] of steps) {
      const expected = await repository.resolveIdentities(1, identities, day);
      const [answer] = sql.resolve([batchOf(identities, day)]);
      expect([...answer!.ids]).toEqual(identities.map((item) => expected.get(item.key)));
    }
    connection.close();
    expect(await rowsOf(viaThread)).toEqual(await rowsOf(viaRepository));
    const moved = (await rowsOf(viaThread)).filter((row) => row.last_seen === '2026-11-28');
    expect(moved.map((row) => row.title)).toEqual(['t0', 't650', 'new']);
  });

  it('writes the batches it is given in one transaction: all or none', async () => {
    const handle = await database();
    const connection = new SqliteDatabase(handle.sqliteFile);
    const sql = identitySql(connection);
    const broken = { ...batchOf([identity('b')], '2026-11-28', 2), appId: 999 };
    expect(() => sql.resolve([batchOf([identity('a')], '2026-11-28'), broken])).toThrow(/FOREIGN KEY/);
    connection.close();
    expect(await rowsOf(handle)).toEqual([]);
  });
});
