// Where bench/tests-scale-data.mjs writes: a SQLite file (one transaction, prepared statements)
// or a PostgreSQL database (multi-row INSERTs), both already migrated by the built server.
import Database from 'better-sqlite3';
import pg from 'pg';

/** Rows per multi-row INSERT on PostgreSQL: well under its 65,535 bound parameters. */
const PG_ROWS = 2000;

export async function postgresDatabaseExists(admin, name) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  await client.end();
  return rows.length > 0;
}

export async function postgresAppId(url, code) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('SELECT id FROM apps WHERE code = $1', [code]);
  await client.end();
  return rows[0].id;
}

function sqliteSink(filename) {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const statements = new Map();
  const insert = (table, row) => {
    const columns = Object.keys(row);
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement.run(...columns.map((column) => row[column])).lastInsertRowid;
  };
  db.exec('BEGIN');
  return {
    async identities(rows) {
      for (const row of rows) insert('test_identities', row);
      const ids = new Map();
      for (const { key, id } of db.prepare('SELECT key, id FROM test_identities').all()) ids.set(key, id);
      return ids;
    },
    async upload(row) {
      return Number(insert('test_result_uploads', row));
    },
    async specs(rows) {
      for (const row of rows) insert('test_result_specs', row);
    },
    async failures(rows) {
      for (const row of rows) insert('test_result_failures', row);
    },
    async close() {
      db.exec('COMMIT');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec('ANALYZE');
      db.close();
    },
  };
}

async function postgresSink(connectionString) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const insertMany = async (table, rows, returning = '') => {
    const ids = [];
    for (let start = 0; start < rows.length; start += PG_ROWS) {
      const batch = rows.slice(start, start + PG_ROWS);
      const columns = Object.keys(batch[0]);
      const values = [];
      const tuples = batch.map((row) => {
        const marks = columns.map((column) => {
          values.push(row[column]);
          return `$${values.length}`;
        });
        return `(${marks.join(', ')})`;
      });
      const result = await client.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ${returning}`,
        values,
      );
      ids.push(...result.rows);
    }
    return ids;
  };
  await client.query('BEGIN');
  return {
    async identities(rows) {
      const ids = new Map();
      for (const { key, id } of await insertMany('test_identities', rows, 'RETURNING key, id'))
        ids.set(key, id);
      return ids;
    },
    async upload(row) {
      const [{ id }] = await insertMany('test_result_uploads', [row], 'RETURNING id');
      return id;
    },
    specs: (rows) => insertMany('test_result_specs', rows),
    failures: (rows) => insertMany('test_result_failures', rows),
    async bytes() {
      const { rows } = await client.query('SELECT pg_database_size(current_database()) AS bytes');
      return Number(rows[0].bytes);
    },
    async close() {
      await client.query('COMMIT');
      await client.query('ANALYZE');
      await client.end();
    },
  };
}

/** The sink of a DATABASE_URL (`sqlite:<file>` or `postgres://…`). */
export async function openSink(url) {
  return url.startsWith('sqlite:') ? sqliteSink(url.slice('sqlite:'.length)) : postgresSink(url);
}

/**
 * Forgets the stored figures of every report's tests, so the next generation works them out
 * again as it does after an upload (a build without those tables has nothing to forget).
 */
export async function forgetWindows(url) {
  const statements = ['DELETE FROM test_window_tests', 'DELETE FROM test_window_states'];
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    db.pragma('busy_timeout = 5000');
    for (const statement of statements) {
      try {
        db.exec(statement);
      } catch (error) {
        if (!/no such table/.test(String(error))) throw error;
      }
    }
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) {
      await client.query(statement).catch((error) => {
        if (error.code !== '42P01') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
