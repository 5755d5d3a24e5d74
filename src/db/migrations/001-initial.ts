import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { CreateTableBuilder } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The one dialect difference: an auto-incrementing integer key. */
function withId<T extends string>(db: AnyDb, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** The applications watched, and the work items kept beside them: to-dos and pull requests. */
async function createAppsAndWorkItems(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('apps'))
    .addColumn('name', 'varchar(255)', (col) => col.notNull())
    .addColumn('code', 'varchar(100)', (col) => col.notNull().unique())
    .addColumn('pipeline_url', 'varchar(500)', (col) => col.notNull())
    .addColumn('watching', 'boolean', (col) => col.notNull().defaultTo(sql`true`))
    .addColumn('e2e_trigger_configuration', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await withId(db, db.schema.createTable('todos'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('link', 'varchar(500)')
    .addColumn('due_date', 'text')
    .addColumn('is_completed', 'boolean', (col) => col.notNull().defaultTo(sql`false`))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('todos_due_date_idx').on('todos').columns(['due_date', 'id']).execute();

  await withId(db, db.schema.createTable('pull_requests'))
    .addColumn('url', 'varchar(500)', (col) => col.notNull().unique())
    .addColumn('owner', 'varchar(255)', (col) => col.notNull())
    .addColumn('repo', 'varchar(255)', (col) => col.notNull())
    .addColumn('number', 'integer', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(20)', (col) => col.notNull().defaultTo('open'))
    .addColumn('notified_events', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('etag', 'text')
    .addColumn('scm_cache', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

/** The notifications shown in the dashboard and the devices they are pushed to. */
async function createNotificationTables(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('notifications'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('type', 'varchar(20)', (col) => col.notNull())
    .addColumn('is_read', 'boolean', (col) => col.notNull().defaultTo(sql`false`))
    .addColumn('data', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_created_idx')
    .on('notifications')
    .columns(['created_at', 'id'])
    .execute();

  await withId(db, db.schema.createTable('device_tokens'))
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'char(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text', (col) => col.notNull())
    .execute();
}

/** E2E runs started by hand, and the daily report: one summary per date, one detail per app. */
async function createE2eTables(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('e2e_manual_runs'))
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'varchar(100)', (col) => col.notNull())
    .addColumn('pipeline_number', 'integer')
    .addColumn('status', 'varchar(20)', (col) => col.notNull())
    .addColumn('url', 'varchar(1000)', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('e2e_manual_runs_app_created_idx')
    .on('e2e_manual_runs')
    .columns(['app_id', 'created_at'])
    .execute();

  await withId(db, db.schema.createTable('e2e_report_summaries'))
    .addColumn('date', 'char(10)', (col) => col.notNull().unique())
    .addColumn('status', 'varchar(10)', (col) => col.notNull().defaultTo('pending'))
    .addColumn('total_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('passed_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('failed_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('success_rate', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await withId(db, db.schema.createTable('e2e_report_details'))
    .addColumn('report_summary_id', 'integer', (col) =>
      col.notNull().references('e2e_report_summaries.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('total_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('passed_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('failed_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('flaky_runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('success_rate', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('last_run_status', 'varchar(10)', (col) => col.notNull())
    .addColumn('last_run_number', 'integer')
    .addColumn('last_run_at', 'text', (col) => col.notNull())
    .addColumn('last_failed_run_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('e2e_report_details_summary_app_unique', ['report_summary_id', 'app_id'])
    .execute();
  await db.schema
    .createIndex('e2e_report_details_app_idx')
    .on('e2e_report_details')
    .column('app_id')
    .execute();
}

/** One row per run of a scheduled job. */
async function createJobRunsTable(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('job_runs'))
    .addColumn('job_name', 'varchar(100)', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('outcome', 'varchar(20)', (col) => col.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('job_runs_name_started_idx')
    .on('job_runs')
    .columns(['job_name', 'started_at'])
    .execute();
}

// Later groups reference tables of earlier ones (runs and report details point at apps), and a
// migration is frozen: the tables are created in the order, and with the SQL, that databases
// migrated by earlier versions already had.
export async function up(db: AnyDb): Promise<void> {
  await createAppsAndWorkItems(db);
  await createNotificationTables(db);
  await createE2eTables(db);
  await createJobRunsTable(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'job_runs',
    'e2e_report_details',
    'e2e_report_summaries',
    'e2e_manual_runs',
    'device_tokens',
    'notifications',
    'pull_requests',
    'todos',
    'apps',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
