import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient } from '../../../src/client/index.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../../src/db/database.js';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { freePort } from '../../support/free-port.js';
import { postgresAvailable, redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { TEST_KEY } from '../../support/test-app.js';

/**
 * The scale-out deployment (docs/contract-notes.md, "Deployment and roles"), for real: the Procfile's api, worker and scheduler
 * commands, two processes of each, on one PostgreSQL database and one Redis. Redis is shared with
 * other test suites, so everything here lives in its own database index and key/channel namespace.
 */
const REDIS_DB = 13;
const NAMESPACE = `scale-out-${randomUUID()}:`;
const CYPRESS_KEY = 'scale-out-cypress-key';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Proc {
  role: string;
  child: ChildProcess;
  output: string[];
}

/** The Procfile's commands, run from the TypeScript sources (no build needed in tests). */
function procfileCommands(): Record<string, string[]> {
  const commands: Record<string, string[]> = {};
  for (const line of readFileSync('Procfile', 'utf8').split('\n')) {
    const match = /^([a-z]+):\s*(.+)$/.exec(line);
    if (!match) continue;
    const args = match[2]!.split(/\s+/);
    // Node's own flags (the young generation's maximum) come before the entry and are kept.
    const entry = args.indexOf('dist/src/cli.js');
    expect(args[0]).toBe('node');
    expect(entry).toBeGreaterThan(0);
    commands[match[1]!] = [
      ...args.slice(1, entry),
      '--import',
      'tsx',
      'src/cli.ts',
      ...args.slice(entry + 1),
    ];
  }
  return commands;
}

async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await sleep(250);
  }
}

async function stop(proc: Proc): Promise<number | null> {
  if (proc.child.exitCode !== null) return proc.child.exitCode;
  const exited = new Promise<number | null>((resolve) => proc.child.once('exit', (code) => resolve(code)));
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 40_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

describe.skipIf(!postgresAvailable || !redisAvailable)('scale-out: 2 API, 2 workers, 2 schedulers', () => {
  const procs: Proc[] = [];
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let cypress: FakeCypress;
  let redis: Redis;
  let apis: DashboardClient[];
  let today: string;
  let apisUpAt: string;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    database = openDatabase(testDb.config);
    await migrateToLatest(database.db);
    today = new Date().toISOString().slice(0, 10);
    const now = new Date().toISOString();
    await database.db
      .insertInto('apps')
      .values({
        name: 'Shop',
        code: 'shop',
        pipeline_url: 'https://ci.example.com/shop',
        watching: 1,
        e2e_trigger_configuration: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    cypress = await startFakeCypress({ apiKey: CYPRESS_KEY });
    cypress.rows = [1, 2, 3].map((run) => ({
      project_name: 'Shop',
      run_number: run,
      created_at: `${today}T0${run}:00:00.000Z`,
      status: run === 2 ? 'failed' : 'passed',
      spec: 'cart.cy.ts',
      total_tests: 3,
      pass_tests: run === 2 ? 2 : 3,
      fail_tests: run === 2 ? 1 : 0,
      flaky_tests: 0,
    }));

    const redisUrl = new URL(TEST_REDIS_URL);
    redisUrl.pathname = `/${REDIS_DB}`;
    redis = new Redis(redisUrl.toString());
    // A block left by an interrupted earlier run would turn the jobs' API calls into 429s.
    const staleBlocks = await redis.keys(`${NAMESPACE}dashboard:auth:*`);
    if (staleBlocks.length) await redis.del(...staleBlocks);
    const ports = [await freePort(), await freePort()];
    const commands = procfileCommands();
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATABASE_URL: testDb.url,
      REDIS_URL: redisUrl.toString(),
      REDIS_NAMESPACE: NAMESPACE,
      API_SECURITY_KEY: TEST_KEY,
      API_BASE_URL: `http://127.0.0.1:${ports[0]}`,
      CYPRESS_BASE_URL: cypress.url,
      CYPRESS_API_KEY: CYPRESS_KEY,
      // A report request every 5 s, and a job on every second (6-field cron).
      E2E_REPORT_CRON_SCHEDULE: '*/5 * * * * *',
      DELETE_COMPLETED_TODOS_SCHEDULE: '* * * * * *',
      BRUTE_FORCE_BLOCK_MS: '120000',
      RATE_LIMIT_MAX: '0',
    };
    const start = (role: string, extra: Record<string, string> = {}) => {
      const child = spawn(process.execPath, commands[role]!, {
        env: { ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const proc: Proc = { role, child, output: [] };
      child.stdout.on('data', (chunk: Buffer) => proc.output.push(chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => proc.output.push(chunk.toString()));
      procs.push(proc);
    };
    for (const port of ports) start('api', { PORT: String(port) });
    start('worker');
    start('worker');
    start('scheduler');
    start('scheduler');

    apis = ports.map(
      (port) => new DashboardClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: TEST_KEY, retries: 0 }),
    );
    for (const api of apis) {
      await eventually(
        () => api.health(),
        (health) => health.status === 'ok',
        90_000,
        'API healthy',
      );
    }
    // Per-second ticks before this found no API yet (recorded as failed runs): checked from here.
    // On a whole second, so "tick at or after" and "run started at or after" agree.
    apisUpAt = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000).toISOString();
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all(procs.map(stop));
    if (codes.some((code) => code !== 0)) {
      for (const proc of procs)
        process.stderr.write(`--- ${proc.role}\n${proc.output.join('').slice(-3000)}\n`);
    }
    const keys = await redis.keys(`${NAMESPACE}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await cypress?.close();
    await database?.close();
    await testDb?.drop();
  }, 120_000);

  it('report requests every 5 s: each published once and processed by one worker, one summary; a per-second job runs once per tick', async () => {
    const summary = await eventually(
      () => apis[1]!.reports.summary(today),
      (res) => res.data.status === 'ready',
      90_000,
      'ready summary',
    );
    // Let the per-second job tick a few more times, then stop the schedulers (graceful SIGTERM).
    const runsOf = async (job: string, since = apisUpAt) =>
      database.db
        .selectFrom('job_runs')
        .selectAll()
        .where('job_name', '=', job)
        .where('started_at', '>=', since)
        .orderBy('started_at')
        .execute();
    await eventually(
      () => runsOf('delete-completed-todos'),
      (rows) => rows.length >= 6,
      60_000,
      'six ticks',
    );
    const schedulers = procs.filter((proc) => proc.role === 'scheduler');
    expect(await Promise.all(schedulers.map(stop))).toEqual([0, 0]);
    // Wait until every published request has been processed.
    await eventually(
      () => apis[0]!.reports.queue(),
      (res) => res.data.queued === 0 && res.data.inFlight === 0,
      60_000,
      'empty queue',
    );
    await eventually(
      () => apis[0]!.reports.summary(today),
      (res) => res.data.status === 'ready',
      60_000,
      'ready after the last request',
    );

    const reportRuns = await runsOf('e2e-report', '1970-01-01T00:00:00.000Z');
    const ticksSince = async (job: string, since = apisUpAt) =>
      (await redis.keys(`${NAMESPACE}dashboard:jobs:tick:${job}:*`)).filter(
        (key) => Number(key.split(':').at(-1)) >= Date.parse(since),
      );
    // The report job needs no API (it publishes on the broker): all its ticks count.
    const reportTicks = await ticksSince('e2e-report', '1970-01-01T00:00:00.000Z');
    const summaries = await database.db
      .selectFrom('e2e_report_summaries')
      .selectAll()
      .where('date', '=', today)
      .execute();
    const everySecond = await runsOf('delete-completed-todos');
    const secondTicks = await ticksSince('delete-completed-todos');
    const span =
      (Date.parse(everySecond.at(-1)!.started_at) - Date.parse(everySecond[0]!.started_at)) / 1000 + 1;

    process.stdout.write(
      [
        'scale-out result:',
        `  processes: ${procs.map((proc) => proc.role).join(', ')}`,
        `  e2e-report: ${reportRuns.length} scheduled run(s), ${reportTicks.length} tick lock(s), ` +
          `${cypress.requests.length} report fetch(es), ${summaries.length} summary for ${today} ` +
          `(${summary.data.totalRuns} runs, success rate ${summary.data.successRate})`,
        `  delete-completed-todos (* * * * * *): ${everySecond.length} run(s) for ${secondTicks.length} ` +
          `tick lock(s) over ${span.toFixed(1)} s`,
        '',
      ].join('\n'),
    );

    expect(reportRuns.length).toBeGreaterThanOrEqual(1);
    expect(reportRuns.filter((run) => run.outcome !== 'success').map((run) => run.error)).toEqual([]);
    expect(reportTicks).toHaveLength(reportRuns.length);
    // Each request reached both workers, and exactly one of them processed it.
    expect(cypress.requests).toHaveLength(reportRuns.length);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ status: 'ready', total_runs: 3, passed_runs: 2, failed_runs: 1 });

    expect(everySecond.filter((run) => run.outcome !== 'success').map((run) => run.error)).toEqual([]);
    expect(everySecond).toHaveLength(secondTicks.length);
    expect(everySecond.length).toBeGreaterThanOrEqual(Math.floor(span * 0.7));
  }, 240_000);

  it('a brute-force block made through one API process holds on the other', async () => {
    const [first, second] = apis as [DashboardClient, DashboardClient];
    const wrong = new DashboardClient({
      baseUrl: first.baseUrl,
      apiKey: 'wrong-key-0123456789abcdefghijklmn',
      retries: 0,
    });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const error = (await wrong.apps.list().catch((e: unknown) => e)) as { status: number };
      statuses.push(error.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await second.apps.list().catch((e: unknown) => e);
    expect(blocked).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    expect((blocked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(60);
    expect((await second.health()).httpStatus).toBe(200);
  });
});
