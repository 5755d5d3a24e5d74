// Creating a database probes no server: an SQLite file needs none, and PostgreSQL is reached only
// when a suite asks for it. `databases.ts` adds the dialects the running machine offers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/config.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../src/db/database.js';
import { TEST_POSTGRES_URL } from './service-urls.js';

export type Dialect = DatabaseConfig['dialect'];

export interface TestDatabase {
  config: DatabaseConfig;
  /** The DATABASE_URL value naming this database (for child processes). */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-test-'));
    const filename = join(dir, 'test.sqlite');
    return {
      config: { dialect, filename },
      url: `sqlite:${filename}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `dashboard_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    config: { dialect, connectionString: url.toString() },
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Opens and migrates a fresh database; `close` also drops it. */
export async function openTestDatabase(dialect: Dialect): Promise<DatabaseHandle & { testDb: TestDatabase }> {
  const testDb = await createTestDatabase(dialect);
  const handle = openDatabase(testDb.config);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    testDb,
    async close() {
      await handle.close();
      await testDb.drop();
    },
  };
}
