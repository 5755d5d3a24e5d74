import { type Kysely, PostgresAdapter } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Every test of every upload (issue #36). A test's identity (spec file, title path, Playwright
 * project) is one shared row per app, found by `key`: a hash of those parts, which is also the
 * API's `testId`. Results are not a row each: each spec row of an upload packs its tests' results
 * (identity, status, retries, duration) into `results`, a few bytes a test, so that a passing
 * result costs well under 64 bytes. A failure row names the identity it failed. `last_seen` (a
 * date) lets retention drop identities no stored upload uses any more. Independent of the other
 * migrations: it only adds its own table, columns and indexes.
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable('test_identities');
  await (
    postgres
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
  )
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('key', 'varchar(32)', (col) => col.notNull())
    .addColumn('spec', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('project', 'varchar(1000)', (col) => col.notNull().defaultTo(''))
    .addColumn('last_seen', 'varchar(10)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('test_identities_key_idx')
    .on('test_identities')
    .columns(['app_id', 'key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('test_identities_seen_idx')
    .on('test_identities')
    .columns(['last_seen', 'id'])
    .execute();

  await db.schema
    .alterTable('test_result_specs')
    .addColumn('results', postgres ? 'bytea' : 'blob')
    .execute();
  // A test's history reads the rows of its own spec only.
  await db.schema
    .createIndex('test_result_specs_spec_idx')
    .on('test_result_specs')
    .columns(['spec', 'upload_id'])
    .execute();
  await db.schema.alterTable('test_result_failures').addColumn('identity_id', 'integer').execute();
  await db.schema
    .createIndex('test_result_failures_identity_idx')
    .on('test_result_failures')
    .columns(['identity_id', 'upload_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('test_result_failures_identity_idx').ifExists().execute();
  await db.schema.alterTable('test_result_failures').dropColumn('identity_id').execute();
  await db.schema.dropIndex('test_result_specs_spec_idx').ifExists().execute();
  await db.schema.alterTable('test_result_specs').dropColumn('results').execute();
  await db.schema.dropTable('test_identities').ifExists().execute();
}
