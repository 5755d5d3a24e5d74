import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../support/databases.js';
import type { DatabaseHandle } from '../../../src/db/database.js';
import { SCHEMA_COLUMNS, type TypedColumns } from './schema-columns.js';
import { SCHEMA_RESULTS_COLUMNS } from './schema-results-columns.js';

/**
 * Every table and column of the Kysely types in schema.ts. The type makes the compiler refuse a
 * table or column missing here or named here but absent there, so this list is schema.ts itself.
 * It is kept in two halves, one per file of row types (schema.ts, schema-results.ts).
 */
const TYPED_COLUMNS: TypedColumns = { ...SCHEMA_COLUMNS, ...SCHEMA_RESULTS_COLUMNS };

/** Kysely's own bookkeeping, created by the migrator beside the service's tables. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

describe.each(DIALECTS)('the migrated database matches schema.ts (%s)', (dialect) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.close();
  });

  it('has every typed table and column, and nothing else', async () => {
    const tables = (await database.db.introspection.getTables()).filter(
      (table) => !MIGRATOR_TABLES.has(table.name),
    );
    const migrated = Object.fromEntries(
      tables.map((table) => [table.name, table.columns.map((column) => column.name).sort()]),
    );
    const typed = Object.fromEntries(
      Object.entries(TYPED_COLUMNS).map(([table, columns]) => [table, Object.keys(columns).sort()]),
    );
    expect(migrated).toEqual(typed);
  });
});
