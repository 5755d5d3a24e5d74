import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../../src/db/database.js';
import { isDatabaseUnavailable } from '../../../src/db/errors.js';
import { createTestDatabase, openTestDatabase } from '../../support/test-database.js';
import { postgresAvailable, TEST_POSTGRES_URL } from '../../support/services.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../support/test-app.js';
import { relayedPostgres, startRelay } from '../../support/tcp-relay.js';

/**
 * A database that is restarting, refusing connections or locked answers 503 SERVICE_UNAVAILABLE
 * (the client may retry), never 500, and the service recovers by itself once it is back.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies read freely in assertions
type Json = Record<string, any>;

interface Served {
  app: TestApp;
  request(method: string, path: string, body?: object): Promise<{ status: number; body: Json }>;
}

async function serve(database: DatabaseHandle): Promise<Served> {
  const app = await createTestApp({ database });
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    async request(method, path, body) {
      const response = await fetch(`${address}${path}`, {
        method,
        headers: { 'x-api-key': TEST_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Json };
    },
  };
}

const expectUnavailable = (response: { status: number; body: Json }) => {
  expect(response.status).toBe(503);
  expect(response.body).toMatchObject({
    success: false,
    error: { code: 'SERVICE_UNAVAILABLE', statusCode: 503, message: expect.stringContaining('database') },
  });
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(postgresAvailable)('PostgreSQL outage', () => {
  const open = () => relayedPostgres(cleanups);

  it('answers 503 while the server cannot be reached and recovers when it is back', async () => {
    const { relay, relayedUrl } = await open();
    const database = openDatabase({ dialect: 'postgres', connectionString: relayedUrl });
    cleanups.push(() => database.close());
    const served = await serve(database);
    cleanups.push(() => served.app.close());

    expect((await served.request('POST', '/api/to_do_list', { title: 'before' })).status).toBe(201);
    await relay.cut();
    expectUnavailable(await served.request('GET', '/api/to_do_list'));
    expectUnavailable(await served.request('POST', '/api/to_do_list', { title: 'during' }));
    expectUnavailable(await served.request('GET', '/api/apps'));
    expect((await served.request('GET', '/health')).status).toBe(503);

    const restored = await startRelay({ host: '127.0.0.1', port: 5432 }, relay.port);
    cleanups.push(() => restored.cut());
    const list = await served.request('GET', '/api/to_do_list');
    expect(list.status).toBe(200);
    expect(list.body.data.map((todo: { title: string }) => todo.title)).toEqual(['before']);
  }, 30_000);

  it('answers 503 when its connections are terminated and new ones refused', async () => {
    const { testDb, relay } = await open();
    cleanups.push(() => relay.cut());
    const database = openDatabase(testDb.config);
    cleanups.push(() => database.close());
    const served = await serve(database);
    cleanups.push(() => served.app.close());
    expect((await served.request('GET', '/api/apps')).status).toBe(200);

    const name = new URL(testDb.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      // A read not made before: the answer cached by the first one is still true and still served.
      expectUnavailable(await served.request('GET', '/api/apps?limit=10'));
      expectUnavailable(await served.request('POST', '/api/to_do_list', { title: 'refused' }));
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    } finally {
      await admin.end();
    }
    expect((await served.request('POST', '/api/to_do_list', { title: 'after' })).status).toBe(201);
  }, 30_000);
});

describe.runIf(postgresAvailable)('PostgreSQL connection ended while checked out of the pool', () => {
  it('fails the transaction that held it as unavailable, without an unhandled error event', async () => {
    const database = await openTestDatabase('postgres');
    cleanups.push(() => database.close());
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    cleanups.push(() => admin.end());

    const outcome = await database.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Ended by the server between two queries, while this transaction holds the connection:
        // pg then emits 'error' on a client the pool is not listening to.
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        await sql`select 1`.execute(trx);
        return 'committed';
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(outcome)).toBe(true);
    // The pool discarded the dead connection: the next query gets a working one.
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  }, 30_000);
});

describe('SQLite lock held by another connection', () => {
  it('answers 503 once busy_timeout expires, and 201 after the lock is released', async () => {
    const testDb = await createTestDatabase('sqlite');
    cleanups.push(() => testDb.drop());
    const database = openDatabase(testDb.config);
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);
    const served = await serve(database);
    cleanups.push(() => served.app.close());

    const filename = testDb.config.dialect === 'sqlite' ? testDb.config.filename : '';
    const other = new SqliteDatabase(filename);
    cleanups.push(async () => void other.close());
    other.exec('BEGIN IMMEDIATE');
    expectUnavailable(await served.request('POST', '/api/to_do_list', { title: 'locked out' }));
    other.exec('ROLLBACK');
    expect((await served.request('POST', '/api/to_do_list', { title: 'let in' })).status).toBe(201);
  }, 30_000);
});
