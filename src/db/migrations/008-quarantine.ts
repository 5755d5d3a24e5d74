import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Known failures: a spec of an app set aside with a reason and, usually, the tracker ticket that
 * will fix it. A row stays after it is lifted (`lifted_at`, `lifted_reason`) so the history can be
 * shown. At most one active row per app and spec, enforced by a partial unique index so that two
 * concurrent requests cannot both create one. Independent of the other migrations.
 */
export async function up(db: AnyDb): Promise<void> {
  const table = db.schema.createTable('quarantines');
  const withId =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  await withId
    .addColumn('app_id', 'integer', (col) => col.notNull())
    .addColumn('spec', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('ticket_key', 'varchar(40)')
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('lifted_at', 'text')
    .addColumn('lifted_reason', 'varchar(20)')
    .execute();
  await db.schema
    .createIndex('quarantines_active_spec_idx')
    .on('quarantines')
    .columns(['app_id', 'spec'])
    .unique()
    .where(sql.ref('lifted_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('quarantines_created_idx')
    .on('quarantines')
    .columns(['created_at', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('quarantines').execute();
}
