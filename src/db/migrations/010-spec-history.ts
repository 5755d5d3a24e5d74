import type { Kysely } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Why a spec fails: each stored spec of a report gains its recent results, the runs and commits
 * around its failing streak and its last error, as one JSON text (`history`, null for reports
 * generated before). Read only with its row, never searched, so one column serves both dialects.
 * Independent of the other migrations: it only adds a nullable column.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('e2e_report_specs').addColumn('history', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('e2e_report_specs').dropColumn('history').execute();
}
