import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../support/databases.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { TEST_KEY } from '../../support/test-app.js';
import { CYPRESS_KEY, eventually, sleep } from '../../support/report-harness.js';
import {
  freePort,
  type ServiceProcess,
  spawnService,
  uniqueNamespace,
  waitUntilHealthy,
} from './processes.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

/** The bound: a ready report shows an upload within 5 s of its 201. */
const VISIBLE_WITHIN_MS = 5000;

/**
 * The deployed shape keeps its `/api` rate limit, sized as an operator would for this traffic from
 * one address: the test polls the report every 25 ms while it waits (up to 2,400 requests a minute)
 * beside the burst of uploads, and the count is shared through Redis by both API processes (and by
 * any other run on the same Redis: the limiter's key has no namespace). The default 600 a minute
 * answered an upload of the burst with 429.
 */
const RATE_LIMIT = { RATE_LIMIT_MAX: '20000', RATE_LIMIT_WINDOW_MS: '60000' };

const today = () => new Date().toISOString().slice(0, 10);
const junit = (run: number) =>
  `<testsuites><testsuite name="cart" file="cart.spec.js"><testcase name="adds"/>` +
  `<testcase name="pays">${run % 2 ? '<failure message="declined">declined</failure>' : ''}</testcase>` +
  `</testsuite></testsuites>`;

/**
 * The deployed shape: two API processes taking uploads and a worker process, sharing a database
 * (each dialect) and Redis. Uploads reach the report without anyone asking, within the bound, and
 * a burst spread over both API processes costs no more regenerations than one process would.
 */
describe.runIf(redisAvailable).each(DIALECTS)('reports follow uploads across processes (%s)', (dialect) => {
  let database: TestDatabase;
  let fake: FakeCypress;
  const processes: ServiceProcess[] = [];
  let worker: ServiceProcess;
  const apis: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_NAMESPACE: uniqueNamespace('fresh'),
      API_SECURITY_KEY: TEST_KEY,
      CYPRESS_BASE_URL: fake.url,
      CYPRESS_API_KEY: CYPRESS_KEY,
      HOST: '127.0.0.1',
      ...RATE_LIMIT,
    };
    // One process first: it migrates the database the others then find ready.
    for (let index = 0; index < 2; index++) {
      const port = await freePort();
      processes.push(spawnService('api', { ...env, PORT: String(port) }));
      apis.push(`http://127.0.0.1:${port}`);
      await waitUntilHealthy(apis[index]!);
    }
    // The worker logs each report it makes ready: the count of regenerations.
    worker = spawnService('worker', { ...env, PORT: '0', LOG_LEVEL: 'info' });
    processes.push(worker);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await fake.close();
    await database.drop();
  });

  const call = async (base: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { 'x-api-key': TEST_KEY, ...(init.headers ?? {}) },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const send = async (base: string, code: string, run: number) => {
    const response = await call(base, `/api/test_results?app=${code}&run=${run}`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: junit(run),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return Date.now();
  };
  const lastRun = async (appId: number) => {
    const response = await call(apis[1]!, `/api/e2e_run_report?date=${today()}`);
    if (response.status !== 200) return undefined;
    return (response.body.details as Json[]).find((detail) => detail.appId === appId)?.lastRunNumber as
      number | undefined;
  };
  const readyLogs = () =>
    (worker.output().match(new RegExp(`"date":"${today()}"[^\\n]*"msg":"report ready"`, 'g')) ?? []).length;

  it('shows an upload in the ready report within 5 s, and coalesces a burst over two API processes', async () => {
    const created = await call(apis[0]!, '/api/apps', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fresh', code: 'fresh', pipelineUrl: 'https://ci.example.com/p' }),
    });
    const appId = created.body.data.id as number;
    await send(apis[0]!, 'fresh', 1);
    await eventually(
      () => lastRun(appId),
      (run) => run === 1,
      30_000,
    );

    for (const run of [2, 3]) {
      const accepted = await send(apis[run % 2]!, 'fresh', run);
      await eventually(
        () => lastRun(appId),
        (shown) => shown === run,
        30_000,
      );
      expect(Date.now() - accepted).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
    }

    await sleep(1000);
    const before = readyLogs();
    const started = Date.now();
    for (let run = 10; run < 30; run++) {
      await send(apis[run % 2]!, 'fresh', run);
      await sleep(Math.max(0, started + (run - 9) * 450 - Date.now()));
    }
    await eventually(
      () => lastRun(appId),
      (shown) => shown === 29,
      30_000,
    );
    await sleep(5000);
    const regenerations = readyLogs() - before;
    expect(regenerations).toBeGreaterThanOrEqual(1);
    expect(regenerations).toBeLessThanOrEqual(3);
  }, 120_000);
});
