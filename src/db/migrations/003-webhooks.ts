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
 * Outgoing webhooks (Slack, Teams, signed generic JSON): the targets, the deliveries still to be
 * made (kept in the database so a restart or a crash loses none, and claimed by one process at a
 * time), and the log of attempts. Independent of the other migrations: it only adds its tables.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('webhooks'))
    .addColumn('name', 'varchar(100)')
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('url', 'varchar(2000)', (col) => col.notNull())
    .addColumn('secret', 'varchar(200)')
    .addColumn('types', 'text', (col) => col.notNull())
    .addColumn('last_delivery_at', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await withId(db, db.schema.createTable('webhook_jobs'))
    .addColumn('webhook_id', 'integer', (col) => col.notNull())
    .addColumn('notification_id', 'integer')
    .addColumn('delivery_id', 'varchar(36)', (col) => col.notNull())
    .addColumn('event_type', 'varchar(20)', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_jobs_due_idx')
    .on('webhook_jobs')
    .columns(['next_attempt_at', 'id'])
    .execute();

  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (col) => col.notNull())
    .addColumn('notification_id', 'integer')
    .addColumn('delivery_id', 'varchar(36)', (col) => col.notNull())
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_jobs', 'webhooks']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
