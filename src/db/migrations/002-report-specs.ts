import { type Kysely, PostgresAdapter } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

const DAY_COLUMNS = ['day_total_runs', 'day_passed_runs', 'day_failed_runs'] as const;

/**
 * Per-spec statistics of each report detail, the day's run figures of details and summaries,
 * and the watched apps a summary found no runs for. Old reports keep working: their day figures
 * are 0, they have no spec rows, and `apps_without_runs` stays null (read as none).
 */
export async function up(db: AnyDb): Promise<void> {
  let table = db.schema.createTable('e2e_report_specs');
  table = isPostgres(db)
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  await table
    .addColumn('report_detail_id', 'integer', (col) =>
      col.notNull().references('e2e_report_details.id').onDelete('cascade'),
    )
    // Rank in the endpoint's order, computed once when the report is stored, so pages are read
    // by index and both databases agree on the order whatever their text collation.
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('spec', 'text', (col) => col.notNull())
    .addColumn('total_runs', 'integer', (col) => col.notNull())
    .addColumn('failed_runs', 'integer', (col) => col.notNull())
    .addColumn('flaky_runs', 'integer', (col) => col.notNull())
    .addColumn('success_rate', 'double precision', (col) => col.notNull())
    .addColumn('last_status', 'varchar(10)', (col) => col.notNull())
    .addColumn('last_run_number', 'integer')
    .addColumn('last_run_at', 'text', (col) => col.notNull())
    .addColumn('last_failed_at', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('avg_duration_ms', 'integer')
    .addColumn('last_failure_author', 'text')
    .execute();
  await db.schema
    .createIndex('e2e_report_specs_detail_position_idx')
    .on('e2e_report_specs')
    .columns(['report_detail_id', 'position'])
    .execute();

  for (const tableName of ['e2e_report_details', 'e2e_report_summaries']) {
    for (const column of DAY_COLUMNS) {
      await db.schema
        .alterTable(tableName)
        .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    }
  }
  await db.schema.alterTable('e2e_report_details').addColumn('last_failure_author', 'text').execute();
  await db.schema.alterTable('e2e_report_summaries').addColumn('apps_without_runs', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('e2e_report_specs').ifExists().execute();
  await db.schema.alterTable('e2e_report_summaries').dropColumn('apps_without_runs').execute();
  await db.schema.alterTable('e2e_report_details').dropColumn('last_failure_author').execute();
  for (const tableName of ['e2e_report_details', 'e2e_report_summaries']) {
    for (const column of DAY_COLUMNS) {
      await db.schema.alterTable(tableName).dropColumn(column).execute();
    }
  }
}
