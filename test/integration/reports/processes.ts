import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { freePort } from '../../support/free-port.js';
import { postgresAvailable } from '../../support/services.js';
import { eventually, sleep } from '../../support/report-harness.js';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// Kept here too: the report tests take every process helper from this one module.
export { freePort };

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string | null>;
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/**
 * The `/api` rate limit of a spawned process unless a test sets its own. With Redis the limiter
 * counts per address under one key that `REDIS_NAMESPACE` does not separate, so every process of
 * every test file (and of any other run on the same Redis) calling from 127.0.0.1 would spend one
 * shared budget of 600 a minute: a test that polls a report every 25 ms spends it alone in 15 s.
 * The limiter's own behaviour is tested in `src/http/plumbing/rate-limit.test.ts`.
 */
const SPAWNED_RATE_LIMIT = { RATE_LIMIT_MAX: '0' };

/** `dashboard serve --roles <roles>` as a child process (TypeScript sources through tsx). */
export function spawnService(roles: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--roles', roles], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...SPAWNED_RATE_LIMIT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    output: () => text,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A private redis-server (never the shared one on 6379), which tests may stop and restart. */
export async function startPrivateRedis(port?: number) {
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${chosen}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch {
      await sleep(50);
    }
  }
  probe.disconnect();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port: chosen,
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export const uniqueNamespace = (label: string) => `test-${label}-${randomUUID().slice(0, 8)}:`;

/** Resolves once the service at `baseUrl` answers its health check with 200 (a child takes a while to boot). */
export async function waitUntilHealthy(baseUrl: string): Promise<void> {
  await eventually(
    () =>
      fetch(`${baseUrl}/health`).then(
        (response) => response.status,
        () => 0,
      ),
    (status) => status === 200,
    30_000,
  );
}

export interface SharedDatabase {
  testDb: TestDatabase;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database that several service processes can open at once (PostgreSQL when it
 * runs here, an SQLite file otherwise), holding one watched app per name.
 */
export async function openSharedDatabase(appNames: string[]): Promise<SharedDatabase> {
  const testDb = await createTestDatabase(postgresAvailable ? 'postgres' : 'sqlite');
  const database = openDatabase(testDb.config);
  await migrateToLatest(database.db);
  const now = new Date().toISOString();
  await database.db
    .insertInto('apps')
    .values(
      appNames.map((name) => ({
        name,
        code: name,
        pipeline_url: 'https://ci/x',
        watching: 1,
        e2e_trigger_configuration: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  return {
    testDb,
    database,
    async close() {
      await database.close();
      await testDb.drop();
    },
  };
}
