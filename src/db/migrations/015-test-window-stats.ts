import { type Kysely, PostgresAdapter } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Each test's figures over a report's 14-day window, worked out once per report and app instead
 * of on every read of its tests (issue #36: a window holds millions of packed results). One row
 * per test in the list's order (`position`), with what the list filters on and the figures; what
 * the list says of a run (number, time, commit, CI link) is read from the upload its id names.
 * `test_window_states` says which uploads the rows were worked out from (`fingerprint`), so a
 * read tells whether they still hold. Both go with their report summary or app. Independent of
 * the other migrations: two tables of its own, and an index on the uploads.
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('test_window_states')
    .addColumn('report_summary_id', 'integer', (col) =>
      col.notNull().references('e2e_report_summaries.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('fingerprint', 'varchar(100)', (col) => col.notNull())
    .addColumn('computed_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('test_window_states_pk', ['report_summary_id', 'app_id'])
    .execute();
  await db.schema
    .createTable('test_window_tests')
    .addColumn('report_summary_id', 'integer', (col) => col.notNull())
    .addColumn('app_id', 'integer', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('identity_id', 'integer', (col) => col.notNull())
    .addColumn('last_status', 'varchar(10)', (col) => col.notNull())
    .addColumn('is_flaky', 'integer', (col) => col.notNull())
    .addColumn('runs', 'integer', (col) => col.notNull())
    .addColumn('passed', 'integer', (col) => col.notNull())
    .addColumn('failed', 'integer', (col) => col.notNull())
    .addColumn('flaky', 'integer', (col) => col.notNull())
    .addColumn('skipped', 'integer', (col) => col.notNull())
    // Rates in ten-thousandths: the API rounds them to 4 decimals, so they fit an integer exactly.
    .addColumn('pass_rate', 'integer', (col) => col.notNull())
    .addColumn('flake_rate', 'integer', (col) => col.notNull())
    .addColumn('avg_duration_ms', 'integer')
    .addColumn('p90_duration_ms', 'integer')
    .addColumn('last_upload_id', 'integer', (col) => col.notNull())
    .addColumn('failing_since_upload_id', 'integer')
    .addColumn('last_failed_upload_id', 'integer')
    .addColumn('history', postgres ? 'bytea' : 'blob', (col) => col.notNull())
    .addColumn('evidence', postgres ? 'bytea' : 'blob')
    .addPrimaryKeyConstraint('test_window_tests_pk', ['report_summary_id', 'app_id', 'position'])
    .addForeignKeyConstraint(
      'test_window_tests_state_fk',
      ['report_summary_id', 'app_id'],
      'test_window_states',
      ['report_summary_id', 'app_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();
  // The uploads of one app in a window, read by every tests list to check its figures still hold.
  await db.schema
    .createIndex('test_result_uploads_app_created_idx')
    .on('test_result_uploads')
    .columns(['app_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('test_result_uploads_app_created_idx').ifExists().execute();
  await db.schema.dropTable('test_window_tests').ifExists().execute();
  await db.schema.dropTable('test_window_states').ifExists().execute();
}
