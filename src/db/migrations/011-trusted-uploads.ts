import type { Kysely } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Uploads you can trust: each upload keeps the CI attempt it came from (GitHub's re-runs), whether
 * its run crashed outside any test (`status` ok or errored, with the errors as JSON text) and who
 * triggered the run beside the commit's author; a failure keeps its `file:line`. `report_refreshes` holds the report dates an
 * accepted upload asked to regenerate, one row per date until a worker claims it: uploads that
 * arrive meanwhile join the same row, so a burst costs one regeneration per date, in any number
 * of processes. Independent of the other migrations: it only adds columns and its own table.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('test_result_uploads')
    .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('test_result_uploads')
    .addColumn('status', 'varchar(10)', (col) => col.notNull().defaultTo('ok'))
    .execute();
  await db.schema.alterTable('test_result_uploads').addColumn('errors', 'text').execute();
  await db.schema.alterTable('test_result_uploads').addColumn('triggered_by', 'varchar(500)').execute();
  await db.schema.alterTable('test_result_failures').addColumn('location', 'text').execute();
  // The report reads an app's runs of a window; attempts are compared within a run.
  await db.schema
    .createIndex('test_result_uploads_run_idx')
    .on('test_result_uploads')
    .columns(['app_id', 'run_number', 'attempt'])
    .execute();
  await db.schema
    .createTable('report_refreshes')
    .addColumn('date', 'varchar(10)', (col) => col.primaryKey())
    .addColumn('due_at', 'text', (col) => col.notNull())
    .addColumn('requested_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('report_refreshes_due_idx').on('report_refreshes').column('due_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('report_refreshes').ifExists().execute();
  await db.schema.dropIndex('test_result_uploads_run_idx').ifExists().execute();
  await db.schema.alterTable('test_result_failures').dropColumn('location').execute();
  for (const column of ['triggered_by', 'errors', 'status', 'attempt']) {
    await db.schema.alterTable('test_result_uploads').dropColumn(column).execute();
  }
}
