import type { ColumnType } from 'kysely';

/**
 * Column types shared by the row types (src/db/schema.ts, schema-results.ts). Booleans are written
 * as 0/1 (SQLite cannot bind booleans; PostgreSQL accepts 0/1 for a boolean parameter) and read
 * back as either; a creation time is set once, on insert.
 */
export type DbBoolean = ColumnType<boolean | number, number, number>;
export type CreatedAt = ColumnType<string, string, never>;
