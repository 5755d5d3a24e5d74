import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { createTestDatabase, DIALECTS } from '../../support/databases.js';
import { postgresAvailable, TEST_POSTGRES_URL } from '../../support/services.js';
import { migrateToLatest, openDatabase } from '../../../src/db/database.js';
import { migrationProvider } from '../../../src/db/migrations/index.js';

describe.runIf(postgresAvailable)('PostgreSQL connection pool', () => {
  it('survives the server ending an idle connection and reconnects for the next query', async () => {
    const testDb = await createTestDatabase('postgres');
    const handle = openDatabase(testDb.config);
    try {
      await migrateToLatest(handle.db);
      await handle.ping();
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      const name = new URL(testDb.url).pathname.slice(1);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(Promise.resolve(handle.ping())).resolves.toBeUndefined();
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe.each(DIALECTS)('migrations written on parallel branches (%s)', (dialect) => {
  it('runs a migration that arrives later with a lower number than one already applied', async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      // A database migrated before 004 existed in the code, but after 005 did.
      const all = await migrationProvider.getMigrations();
      const { '004-integration-status': _later, ...earlier } = all;
      const partial = new Migrator({ db: handle.db, provider: { getMigrations: async () => earlier } });
      expect((await partial.migrateToLatest()).error).toBeUndefined();
      expect(await migrateToLatest(handle.db)).toEqual(['004-integration-status']);
      expect(await handle.db.selectFrom('integration_status').selectAll().execute()).toEqual([]);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe('the SQLite ping', () => {
  it('answers synchronously while the connection is open, and throws once it is closed', async () => {
    const testDb = await createTestDatabase('sqlite');
    const handle = openDatabase(testDb.config);
    try {
      expect(handle.ping()).toBeUndefined();
      expect(handle.ping()).toBeUndefined();
    } finally {
      await handle.close();
    }
    expect(() => handle.ping()).toThrow(/not open/);
    await testDb.drop();
  });
});
