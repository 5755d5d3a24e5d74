import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../../support/databases.js';
import type { DatabaseHandle } from '../../../../src/db/database.js';
import { createTodosRepository, type TodoWrite } from '../../../../src/modules/todos/todos.repository.js';

const WRITES: TodoWrite[] = [
  { title: 'Plain', description: null, link: null, dueDate: null, isCompleted: false },
  {
    title: 'Ünïcode ✓ and "quotes"',
    description: 'multi\nline',
    link: `https://example.test/${'x'.repeat(400)}`,
    dueDate: '2030-02-28',
    isCompleted: true,
  },
  { title: '0', description: '', link: null, dueDate: '1999-12-31', isCompleted: false },
];

// On SQLite `create` builds the stored row itself instead of asking for it back (`RETURNING`):
// what it hands out must be exactly the row a read finds, field for field and in the same order.
describe.each(DIALECTS)('to-do repository create (%s)', (dialect) => {
  let database: DatabaseHandle;
  let repository: ReturnType<typeof createTodosRepository>;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    repository = createTodosRepository(database.db, dialect);
  });
  afterAll(async () => database.close());

  it('returns the row as stored, one at a time', async () => {
    for (const write of WRITES) {
      const created = await repository.create(write);
      const stored = await repository.findById(created.id);
      expect(created).toStrictEqual(stored);
      expect(Object.keys(created)).toEqual(Object.keys(stored!));
      expect(created).toMatchObject({ title: write.title, is_completed: write.isCompleted });
    }
  });

  it('returns each row as stored when the inserts commit together', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        repository.create({ ...WRITES[i % WRITES.length]!, title: `Batch ${i}` }),
      ),
    );
    expect(new Set(created.map((row) => row.id)).size).toBe(created.length);
    for (const row of created) expect(row).toStrictEqual(await repository.findById(row.id));
  });
});
