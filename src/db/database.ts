import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Dialect, Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import type { DatabaseConfig } from '../config/config.js';
import { groupCommits } from './group-commit.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';
import { trackWrites, type WriteEvents } from './write-tracking.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: DatabaseConfig['dialect'];
  /** The SQLite file, when the database is one (other connections, a worker thread's, open it too). */
  readonly sqliteFile?: string;
  /** Committed writes of this process, by table (response-cache invalidation listens here). */
  readonly writes: WriteEvents;
  /**
   * Runs a trivial query; used by /health. SQLite answers synchronously (no promise, no trip
   * through the query builder); PostgreSQL round-trips to the server.
   */
  ping(): void | Promise<void>;
  close(): Promise<void>;
}

function openDialect(config: DatabaseConfig): {
  dialect: Dialect;
  events: WriteEvents;
  sqlite?: SqliteDatabase.Database;
} {
  if (config.dialect === 'postgres') {
    return trackWrites(new PostgresDialect({ pool: () => openPostgresPool(config.connectionString) }));
  }
  const sqlite = openSqlite(config.filename);
  const tracked = trackWrites(new SqliteDialect({ database: sqlite }));
  // Grouping sits outside tracking, so a batch is announced once, after its COMMIT.
  return {
    dialect: groupCommits(tracked.dialect, () => sqlite.inTransaction),
    events: tracked.events,
    sqlite,
  };
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  const { sqlite, ...tracked } = openDialect(config);
  const db = new Kysely<Database>({ dialect: tracked.dialect });
  // Prepared once: compiling the statement cost more than running it, on every /health. Run on a
  // closed connection it still throws, which is what the health check needs to see.
  const sqlitePing = sqlite?.prepare('select 1').pluck();
  return {
    db,
    dialect: config.dialect,
    ...(config.dialect === 'sqlite' && config.filename !== ':memory:' ? { sqliteFile: config.filename } : {}),
    writes: tracked.events,
    ping: sqlitePing
      ? () => void sqlitePing.get()
      : async () => {
          await sql`select 1`.execute(db);
        },
    async close() {
      await db.destroy();
      // Kysely closes the file only if it ever queried it.
      if (sqlite?.open) sqlite.close();
    },
  };
}

/** The loss is seen again by whoever uses the connection next, as a failed query. */
const ignoreConnectionLoss = (): void => undefined;

/** The driver is loaded with the first query, so a SQLite deployment never loads it. */
async function openPostgresPool(connectionString: string): Promise<Pool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5000 });
  // A connection the server ends (restart, failover, admin command) emits 'error', and an
  // 'error' nobody listens to crashes the process. The pool listens only while a connection is
  // idle; one checked out (between two queries of a transaction, or even during a query) has no
  // listener of its own. So every connection gets one as it is made. Nothing else is needed: the
  // query or transaction that was using it fails (answered 503), the pool discards it on release
  // and the next query opens a new one.
  pool.on('connect', (client) => client.on('error', ignoreConnectionLoss));
  pool.on('error', ignoreConnectionLoss);
  return pool;
}

function openSqlite(filename: string): SqliteDatabase.Database {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new SqliteDatabase(filename);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  // Several processes may share one file (CLI + server); wait for a lock instead of failing.
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return withStatementCache(database);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, and preparing costs more than running the
 * small queries this service makes. Queries are built from a fixed set of shapes, so cache the
 * prepared statements by SQL text (least recently used evicted first). Reusing a statement is
 * safe because better-sqlite3 runs each one to completion synchronously.
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteDatabase.Database {
  const prepare = database.prepare.bind(database);
  const cache = new LRUCache<string, SqliteDatabase.Statement>({ max: STATEMENT_CACHE_SIZE });
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      cache.set(source, statement);
    }
    return statement;
  }) as SqliteDatabase.Database['prepare'];
  return database;
}

/** Applies pending migrations; safe to run concurrently from several processes on PostgreSQL. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Migrations are written on parallel branches and are independent of each other, so one that
  // lands later with a lower number (002 after 004) must still run on a database migrated before.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
