// Shared by the identity SQL and identity writer tests: a migrated SQLite file holding app 1
// (`shop`), and identities of its spec `a.spec.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../src/db/database.js';
import { testIdOf } from '../../src/modules/tests/test-identity.js';
import type { IdentityToResolve } from '../../src/modules/tests/test-recorder.js';

/** A test of app 1's `a.spec.ts` with this title, keyed as uploads key it. */
export const identityOf = (title: string): IdentityToResolve => ({
  key: testIdOf(1, { spec: 'a.spec.ts', title, project: '' }),
  spec: 'a.spec.ts',
  title,
  project: '',
});

/**
 * A new SQLite file (migrated, with app 1 unless `migrated` is false) and the step that closes
 * and removes it.
 */
export async function identityDatabase(
  migrated = true,
): Promise<{ handle: DatabaseHandle; remove: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'identities-'));
  const handle = openDatabase({ dialect: 'sqlite', filename: join(dir, 'test.sqlite') });
  const remove = async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  };
  if (!migrated) return { handle, remove };
  await migrateToLatest(handle.db);
  await handle.db
    .insertInto('apps')
    .values({
      name: 'shop',
      code: 'shop',
      pipeline_url: 'https://ci.example.com/p',
      watching: 1 as never,
      e2e_trigger_configuration: null,
      created_at: '2026-11-27T00:00:00.000Z',
      updated_at: '2026-11-27T00:00:00.000Z',
    })
    .execute();
  return { handle, remove };
}
