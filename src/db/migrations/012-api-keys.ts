import { type Kysely, PostgresAdapter } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * Keys made through the API (`/api/keys`), besides API_SECURITY_KEY. Only the SHA-256 of a key
 * is stored (hex, unique: a request finds its key by this one indexed lookup whatever the number
 * of keys), with the first 12 characters to recognise it. A revoked key keeps its row
 * (`revoked_at`) so the list can show it. Independent of the other migrations.
 */
export async function up(db: AnyDb): Promise<void> {
  const table = db.schema.createTable('api_keys');
  const withId =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  await withId
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('scope', 'varchar(10)', (col) => col.notNull())
    .addColumn('apps', 'text', (col) => col.notNull())
    .addColumn('prefix', 'varchar(12)', (col) => col.notNull())
    .addColumn('key_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
