import { type Kysely, PostgresAdapter } from 'kysely';
import type { CreateTableBuilder } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

function withId<T extends string>(db: AnyDb, table: CreateTableBuilder<T, never>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/**
 * Test results uploaded by any CI (JUnit XML, Playwright JSON, Mochawesome): one row per uploaded
 * file, one per spec of it (what the daily report reads) and one per failed test (its error
 * text). Deleting an app or an upload takes its rows with it. Independent of the other
 * migrations: it only adds its own tables.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('test_result_uploads'))
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('run_number', 'integer', (col) => col.notNull())
    .addColumn('format', 'varchar(20)', (col) => col.notNull())
    .addColumn('digest', 'varchar(64)', (col) => col.notNull())
    .addColumn('specs', 'integer', (col) => col.notNull())
    .addColumn('tests', 'integer', (col) => col.notNull())
    .addColumn('passed', 'integer', (col) => col.notNull())
    .addColumn('failed', 'integer', (col) => col.notNull())
    .addColumn('flaky', 'integer', (col) => col.notNull())
    .addColumn('skipped', 'integer', (col) => col.notNull())
    .addColumn('commit_sha', 'varchar(200)')
    .addColumn('branch', 'varchar(500)')
    .addColumn('author', 'varchar(500)')
    .addColumn('run_url', 'varchar(2000)')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('uploaded_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('test_result_uploads_file_idx')
    .on('test_result_uploads')
    .columns(['app_id', 'run_number', 'digest'])
    .unique()
    .execute();
  await db.schema
    .createIndex('test_result_uploads_created_idx')
    .on('test_result_uploads')
    .columns(['created_at', 'id'])
    .execute();

  await withId(db, db.schema.createTable('test_result_specs'))
    .addColumn('upload_id', 'integer', (col) =>
      col.notNull().references('test_result_uploads.id').onDelete('cascade'),
    )
    .addColumn('spec', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('tests', 'integer', (col) => col.notNull())
    .addColumn('passed', 'integer', (col) => col.notNull())
    .addColumn('failed', 'integer', (col) => col.notNull())
    .addColumn('flaky', 'integer', (col) => col.notNull())
    .addColumn('skipped', 'integer', (col) => col.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('first_failure_message', 'text')
    .execute();
  await db.schema
    .createIndex('test_result_specs_upload_idx')
    .on('test_result_specs')
    .columns(['upload_id', 'id'])
    .execute();

  await withId(db, db.schema.createTable('test_result_failures'))
    .addColumn('upload_id', 'integer', (col) =>
      col.notNull().references('test_result_uploads.id').onDelete('cascade'),
    )
    .addColumn('spec', 'text', (col) => col.notNull())
    .addColumn('test', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('stack', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('test_result_failures_upload_idx')
    .on('test_result_failures')
    .columns(['upload_id', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('test_result_failures').ifExists().execute();
  await db.schema.dropTable('test_result_specs').ifExists().execute();
  await db.schema.dropTable('test_result_uploads').ifExists().execute();
}
