import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  OperationNode,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/** Table names written by a committed change; `ALL_TABLES` when a raw statement hides them. */
export type WrittenTables = ReadonlySet<string>;
export type WriteListener = (tables: WrittenTables) => void;

/** Stands for "any table" when a write was made with raw SQL whose tables are not parsed. */
export const ALL_TABLES = '*';

export interface WriteEvents {
  /** Identifies this stream of writes (one per opened database), so its own echoes are skipped. */
  readonly source: string;
  /** Called after every committed write (after its transaction commits); returns an unsubscribe. */
  onWrite(listener: WriteListener): () => void;
  /** Tells of a write this process committed on another connection (a worker thread's own). */
  committedElsewhere(tables: Iterable<string>): void;
}

const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const RAW_WRITE = /^\s*(insert|update|delete|replace|merge|truncate)\b/i;

/** Every table named anywhere in a write query (subqueries included: over-telling is harmless). */
function collectTables(node: unknown, into: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectTables(item, into);
    return;
  }
  const operation = node as OperationNode & { table?: { identifier?: { name?: unknown } } };
  if (operation.kind === 'TableNode') {
    const name = operation.table?.identifier?.name;
    if (typeof name === 'string') into.add(name);
    return;
  }
  for (const value of Object.values(node)) collectTables(value, into);
}

/** Write statements nested anywhere in `node` (a PostgreSQL `WITH … AS (DELETE …) SELECT`). */
function nestedWrites(node: unknown, into: OperationNode[]): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) nestedWrites(item, into);
    return;
  }
  if (WRITE_KINDS.has((node as OperationNode).kind)) {
    into.push(node as OperationNode);
    return;
  }
  for (const value of Object.values(node)) nestedWrites(value, into);
}

const TABLES_CACHE_SIZE = 500;
const tablesBySql = new LRUCache<string, ReadonlySet<string>>({ max: TABLES_CACHE_SIZE });

/**
 * The tables a compiled query writes, or undefined for a read. The SQL text names every table
 * the query touches, so one text always gives the same answer: a write's tables are remembered by
 * its text (the few shapes of writes repeat), instead of walking its operation tree every time.
 */
export function writtenTables(query: CompiledQuery): ReadonlySet<string> | undefined {
  if (!WRITE_KINDS.has(query.query.kind) && (query.query as { with?: unknown }).with === undefined) {
    return query.query.kind === 'RawNode' && RAW_WRITE.test(query.sql) ? new Set([ALL_TABLES]) : undefined;
  }
  let tables = tablesBySql.get(query.sql);
  if (!tables) {
    tables = findWrittenTables(query);
    tablesBySql.set(query.sql, tables);
  }
  return tables.size > 0 ? tables : undefined;
}

/** Walks a write, or a query with a WITH clause (whose tables are empty if it only reads). */
function findWrittenTables(query: CompiledQuery): Set<string> {
  const tables = new Set<string>();
  if (WRITE_KINDS.has(query.query.kind)) {
    collectTables(query.query, tables);
    return tables;
  }
  const writes: OperationNode[] = [];
  nestedWrites((query.query as { with?: unknown }).with, writes);
  for (const write of writes) collectTables(write, tables);
  return tables;
}

/**
 * Wraps a Kysely dialect so that the process learns which tables every committed write touched,
 * whoever made it (API routes, the manual-run poller, the report worker, jobs). A write inside a
 * transaction is told only once the transaction commits, so a listener that drops cached reads
 * never runs while the old rows are still what other connections see.
 */
export function trackWrites(dialect: Dialect): { dialect: Dialect; events: WriteEvents } {
  const listeners = new Set<WriteListener>();
  const emit = (tables: WrittenTables) => {
    if (tables.size === 0) return;
    for (const listener of listeners) listener(tables);
  };
  const events: WriteEvents = {
    source: randomUUID(),
    onWrite(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    committedElsewhere: (tables) => emit(new Set(tables)),
  };
  return {
    events,
    dialect: {
      createDriver: () => new TrackingDriver(dialect.createDriver(), emit),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    },
  };
}

class TrackedConnection implements DatabaseConnection {
  /** Tables written since BEGIN; undefined outside a transaction. */
  pending: Set<string> | undefined;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly emit: (tables: WrittenTables) => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    const tables = writtenTables(query);
    if (tables) {
      if (this.pending) for (const table of tables) this.pending.add(table);
      else this.emit(tables);
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class TrackingDriver implements Driver {
  private readonly wrappers = new WeakMap<DatabaseConnection, TrackedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly emit: (tables: WrittenTables) => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrappers.get(connection);
    if (!wrapper) {
      wrapper = new TrackedConnection(connection, this.emit);
      this.wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const tracked = connection as TrackedConnection;
    await this.inner.beginTransaction(tracked.inner, settings);
    tracked.pending = new Set();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const tracked = connection as TrackedConnection;
    const written = tracked.pending;
    tracked.pending = undefined;
    await this.inner.commitTransaction(tracked.inner);
    if (written) this.emit(written);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const tracked = connection as TrackedConnection;
    tracked.pending = undefined;
    await this.inner.rollbackTransaction(tracked.inner);
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['savepoint']>>[2],
  ): Promise<void> {
    if (!this.inner.savepoint) throw new Error('this database driver has no savepoints');
    await this.inner.savepoint((connection as TrackedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ): Promise<void> {
    if (!this.inner.rollbackToSavepoint) throw new Error('this database driver has no savepoints');
    await this.inner.rollbackToSavepoint((connection as TrackedConnection).inner, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ): Promise<void> {
    if (!this.inner.releaseSavepoint) throw new Error('this database driver has no savepoints');
    await this.inner.releaseSavepoint((connection as TrackedConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as TrackedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
