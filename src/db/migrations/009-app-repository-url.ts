import type { Kysely } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Where an application's code lives (`apps.repository_url`, null until set), and the suspects
 * found between two commits of a repository. Commits never change, so one GitHub answer per
 * repository, base and head serves every process for good.
 * Independent of the other migrations: it only adds a column and its own table.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('apps').addColumn('repository_url', 'varchar(500)').execute();
  await db.schema
    .createTable('suspect_ranges')
    .addColumn('repository', 'varchar(201)', (col) => col.notNull())
    .addColumn('base_sha', 'varchar(64)', (col) => col.notNull())
    .addColumn('head_sha', 'varchar(64)', (col) => col.notNull())
    .addColumn('answer', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('suspect_ranges_pk', ['repository', 'base_sha', 'head_sha'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('suspect_ranges').ifExists().execute();
  await db.schema.alterTable('apps').dropColumn('repository_url').execute();
}
