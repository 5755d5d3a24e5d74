import type { Kysely } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * What GitHub says about a tracked pull request beyond its status: when it was opened there,
 * whether it is a draft and its mergeable state. Null until the pull request is read from GitHub.
 * Independent of the other migrations: it only adds these columns.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pull_requests').addColumn('opened_at', 'text').execute();
  await db.schema.alterTable('pull_requests').addColumn('draft', 'boolean').execute();
  await db.schema.alterTable('pull_requests').addColumn('mergeable_state', 'varchar(40)').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ['mergeable_state', 'draft', 'opened_at']) {
    await db.schema.alterTable('pull_requests').dropColumn(column).execute();
  }
}
