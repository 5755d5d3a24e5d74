import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Group commit for SQLite. Each write outside a transaction would commit on its own, and a commit
 * costs more than the insert it carries: the changed pages go to the WAL again for every row, and
 * the WAL fills up and is checkpointed (with an fsync that stalls the event loop) hundreds of
 * times more often. So writes made outside a transaction during one event-loop turn are queued and
 * run together at the end of the turn, in one transaction. A write that fails is undone alone by
 * SQLite (the transaction goes on) and only its caller sees the error. A batch of one runs as
 * before. `inTransaction` tells whether an error ended the batch's transaction.
 *
 * This wraps the write-tracking dialect, so the batch's tables are announced once, right after its
 * COMMIT and before any of its callers resume (cached reads are dropped before they can answer).
 * If the batch transaction itself fails (BEGIN, COMMIT, or an error that ends the transaction),
 * everything it did is rolled back and each write runs again on its own, as without grouping.
 */
export function groupCommits(dialect: Dialect, inTransaction: () => boolean): Dialect {
  return {
    createDriver: () => new GroupCommitDriver(dialect.createDriver(), inTransaction),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

const GROUPED_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

interface Queued {
  query: CompiledQuery;
  resolve(result: QueryResult<unknown>): void;
  reject(error: unknown): void;
}
type Outcome = { ok: true; result: QueryResult<unknown> } | { ok: false; error: unknown };

class GroupCommitDriver implements Driver {
  private queue: Queued[] = [];

  constructor(
    readonly inner: Driver,
    private readonly inTransaction: () => boolean,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  // The inner (single, mutex-guarded) connection is taken only when needed: per statement, for a
  // batch, or from BEGIN to release for a transaction. Queued writes therefore do not hold it, and
  // neither does `db.connection()` between its queries (only the migrator uses that, at start).
  async acquireConnection(): Promise<DatabaseConnection> {
    return new DeferredConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const deferred = connection as DeferredConnection;
    deferred.held = await this.inner.acquireConnection();
    await this.inner.beginTransaction(deferred.held, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(held(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(held(connection));
  }

  async savepoint(connection: DatabaseConnection, ...rest: SavepointArgs): Promise<void> {
    await this.inner.savepoint!(held(connection), ...rest);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, ...rest: SavepointArgs): Promise<void> {
    await this.inner.rollbackToSavepoint!(held(connection), ...rest);
  }

  async releaseSavepoint(connection: DatabaseConnection, ...rest: SavepointArgs): Promise<void> {
    await this.inner.releaseSavepoint!(held(connection), ...rest);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const deferred = connection as DeferredConnection;
    const inner = deferred.held;
    deferred.held = undefined;
    if (inner) await this.inner.releaseConnection(inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** Runs `use` on the inner connection, waiting for it like any other user. */
  async withInner<T>(use: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    const connection = await this.inner.acquireConnection();
    try {
      return await use(connection);
    } finally {
      await this.inner.releaseConnection(connection);
    }
  }

  enqueue<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ query, resolve: resolve as Queued['resolve'], reject });
      if (this.queue.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    let outcomes: Outcome[] | undefined;
    try {
      outcomes = await this.withInner(async (connection) =>
        batch.length > 1
          ? ((await this.runTogether(connection, batch)) ?? (await runAlone(connection, batch)))
          : runAlone(connection, batch),
      );
    } catch (error) {
      // Only the inner connection's acquire or release can get here; every caller learns of it.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.result);
      else item.reject(outcome.error);
    });
  }

  /** The batch in one transaction, or undefined (all undone) when the transaction itself failed. */
  private async runTogether(connection: DatabaseConnection, batch: Queued[]): Promise<Outcome[] | undefined> {
    try {
      await this.inner.beginTransaction(connection, {});
    } catch {
      return undefined;
    }
    const outcomes: Outcome[] = [];
    try {
      for (const { query } of batch) {
        try {
          outcomes.push({ ok: true, result: await connection.executeQuery(query) });
        } catch (error) {
          outcomes.push({ ok: false, error });
          // SQLite undoes the failed statement and keeps the transaction, as it keeps the other
          // writes' commits without grouping; an error that ends the transaction (OR ROLLBACK,
          // some I/O errors) undid the batch, which then runs again one write at a time.
          if (!this.inTransaction()) throw error;
        }
      }
      await this.inner.commitTransaction(connection);
      return outcomes;
    } catch {
      await this.inner.rollbackTransaction(connection).catch(() => undefined);
      return undefined;
    }
  }
}

type SavepointArgs = [name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]];

function held(connection: DatabaseConnection): DatabaseConnection {
  const inner = (connection as DeferredConnection).held;
  if (!inner) throw new Error('no transaction is open on this connection');
  return inner;
}

async function runAlone(connection: DatabaseConnection, batch: Queued[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { query } of batch) {
    try {
      outcomes.push({ ok: true, result: await connection.executeQuery(query) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}

class DeferredConnection implements DatabaseConnection {
  /** The inner connection, held from BEGIN until the connection is released. */
  held: DatabaseConnection | undefined;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.held) return this.held.executeQuery<R>(query);
    if (GROUPED_KINDS.has(query.query.kind)) return this.driver.enqueue<R>(query);
    return this.driver.withInner((connection) => connection.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.held) {
      yield* this.held.streamQuery<R>(query, chunkSize);
      return;
    }
    const connection = await this.driver.inner.acquireConnection();
    try {
      yield* connection.streamQuery<R>(query, chunkSize);
    } finally {
      await this.driver.inner.releaseConnection(connection);
    }
  }
}
