import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/**
 * One app for the enclosing `describe`: started before its first test, closed after its last,
 * with `tables` emptied (in the order given, for foreign keys) before each test so that every test
 * starts from the same rows. The returned object is filled in once the app has started, so read it
 * only inside hooks and tests.
 */
export function suiteTestApp(options: TestAppOptions, tables: readonly (keyof Database)[] = []): TestApp {
  const suite = {} as TestApp;
  beforeAll(async () => {
    Object.assign(suite, await createTestApp(options));
  });
  afterAll(async () => {
    await suite.close?.();
  });
  beforeEach(async () => {
    for (const table of tables) await suite.database.db.deleteFrom(table).execute();
  });
  return suite;
}
