import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../../src/db/database.js';
import {
  freePort,
  type ServiceProcess,
  spawnService,
  startPrivateRedis,
  waitUntilHealthy,
} from '../reports/processes.js';
import {
  type PrivatePostgres,
  postgresBinaries,
  startPrivatePostgres,
} from '../../support/private-postgres.js';
import { TEST_KEY } from '../../support/test-app.js';

/**
 * PostgreSQL stopped (`pg_ctl -m fast stop`) under two API processes serving reads and writes,
 * kept down 5 s and started again, three times. Before pg's checked-out clients had an 'error'
 * listener, a run like this could kill an API process with "Connection terminated unexpectedly".
 */
const bin = postgresBinaries();
const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

const ROUNDS = 3;
const DOWN_MS = 5000;
const CONNECTIONS_PER_PROCESS = 4;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  /** When the answer arrived (ms since the epoch). */
  at: number;
  write: boolean;
}

describe.runIf(bin)('two API processes through PostgreSQL restarts', () => {
  let server: PrivatePostgres;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>> | undefined;
  const processes: ServiceProcess[] = [];
  const baseUrls: string[] = [];

  beforeAll(async () => {
    server = await startPrivatePostgres(bin!);
    const database = openDatabase({ dialect: 'postgres', connectionString: server.url });
    await migrateToLatest(database.db);
    await database.close();
    if (redisServerInstalled) redis = await startPrivateRedis();
    for (let index = 0; index < 2; index += 1) {
      const port = await freePort();
      processes.push(
        spawnService('api', {
          DATABASE_URL: server.url,
          ...(redis ? { REDIS_URL: redis.url } : {}),
          API_SECURITY_KEY: TEST_KEY,
          PORT: String(port),
          HOST: '127.0.0.1',
          // Every read goes to the database, and the load is not cut by the per-IP limit.
          RESPONSE_CACHE_TTL_MS: '0',
          RATE_LIMIT_MAX: '0',
        }),
      );
      baseUrls.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(baseUrls.map((url) => waitUntilHealthy(url)));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop('SIGKILL')));
    await redis?.stop();
    await server?.destroy();
  });

  it('keeps every process alive, answers 2xx or 503, recovers within 2 s and loses no acknowledged write', async () => {
    const answers: Answer[] = [];
    const unexpected: string[] = [];
    const acknowledged = new Map<number, string>();
    let written = 0;
    let running = true;

    async function client(baseUrl: string, id: number) {
      while (running) {
        const write = Math.random() < 0.5;
        const title = `c${id}-${(written += 1)}`;
        try {
          const response = write
            ? await fetch(`${baseUrl}/api/to_do_list`, {
                method: 'POST',
                headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
                body: JSON.stringify({ title }),
              })
            : await fetch(`${baseUrl}/api/to_do_list?offset=${Math.floor(Math.random() * 50)}&limit=1`, {
                headers: { 'x-api-key': TEST_KEY },
              });
          const body = (await response.json()) as { data?: { id?: number }; error?: { code?: string } };
          answers.push({ status: response.status, at: Date.now(), write });
          if (response.status === 201 && write) acknowledged.set(body.data!.id!, title);
          else if (response.status === 503 && body.error?.code !== 'SERVICE_UNAVAILABLE') {
            unexpected.push(`503 with ${JSON.stringify(body)}`);
          } else if (response.status >= 300 && response.status !== 503) {
            unexpected.push(`${response.status} ${JSON.stringify(body).slice(0, 300)}`);
          }
        } catch (error) {
          unexpected.push(`no answer: ${String(error)}`);
          await sleep(50);
        }
      }
    }

    const clients = baseUrls.flatMap((url, p) =>
      Array.from({ length: CONNECTIONS_PER_PROCESS }, (_, c) => client(url, p * 10 + c)),
    );
    const rounds: { statuses: Record<number, number>; firstSuccessMs: number; requests: number }[] = [];
    let roundStart = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      roundStart = answers.length;
      await sleep(1500);
      await server.stop();
      await sleep(DOWN_MS);
      const answeringAt = await startAndProbe(server);
      // Wait for the first success from each process after the server answers again.
      const deadline = answeringAt + 10_000;
      while (Date.now() < deadline) {
        const recovered = answers.slice(roundStart).some((a) => a.at >= answeringAt && a.status < 300);
        if (recovered) break;
        await sleep(20);
      }
      await sleep(1000);
      const mine = answers.slice(roundStart);
      const first = mine.find((a) => a.at >= answeringAt && a.status < 300);
      const statuses: Record<number, number> = {};
      for (const answer of mine) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      rounds.push({
        statuses,
        firstSuccessMs: first ? first.at - answeringAt : Infinity,
        requests: mine.length,
      });
    }
    running = false;
    await Promise.all(clients);

    const direct = new pg.Client({ connectionString: server.url });
    await direct.connect();
    const { rows } = await direct.query<{ id: number; title: string }>(
      'SELECT id, title FROM todos WHERE id = ANY($1::int[])',
      [[...acknowledged.keys()]],
    );
    await direct.end();
    const stored = new Map(rows.map((row) => [row.id, row.title]));
    const missing = [...acknowledged].filter(([id, title]) => stored.get(id) !== title);

    process.stdout.write(
      `postgres restarts: ${JSON.stringify(rounds)}; acknowledged writes checked: ${acknowledged.size}, missing: ${missing.length}\n`,
    );
    for (const child of processes) expect(child.child.exitCode, child.output()).toBeNull();
    expect(unexpected.slice(0, 10)).toEqual([]);
    for (const round of rounds) {
      expect(
        Object.keys(round.statuses)
          .map(Number)
          .every((status) => status < 300 || status === 503),
      ).toBe(true);
      // The outage was seen (503s) and the service came back quickly.
      expect(round.statuses[503]).toBeGreaterThan(0);
      expect(round.firstSuccessMs).toBeLessThan(2000);
    }
    expect(acknowledged.size).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  }, 120_000);
});

/** Starts the server and returns the moment it first accepted a connection and answered a query. */
async function startAndProbe(server: PrivatePostgres): Promise<number> {
  let answeringAt: number | undefined;
  let starting = true;
  const probe = (async () => {
    while (starting || answeringAt === undefined) {
      const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        answeringAt = Date.now();
        return;
      } catch {
        await sleep(20);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  })();
  await server.start();
  starting = false;
  await probe;
  return answeringAt!;
}
