import type { Kysely } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Last success and last error of each outbound integration, written by whichever process made
 * the call (the worker calls Cypress, the API calls GitHub…) and read by `GET /api/status`.
 * Independent of the other migrations: it only adds its own table.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('integration_status')
    .addColumn('name', 'varchar(20)', (col) => col.primaryKey())
    .addColumn('last_success_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('integration_status').ifExists().execute();
}
