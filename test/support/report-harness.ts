import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse, FastifyInstance } from 'fastify';
import { buildApiRole } from '../../src/roles/api.js';
import type { Broker } from '../../src/broker/broker.js';
import { createInProcessBroker } from '../../src/broker/in-process-broker.js';
import type { Config } from '../../src/config/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createMetrics, type Metrics } from '../../src/http/plumbing/metrics.js';
import { type FakeCypress, type FakeSpecRow, startFakeCypress } from '../fakes/fake-cypress.js';
import { type ReportWorker, startReportWorker } from '../../src/roles/worker.js';
import { createTestContainer, type TestContainer } from './test-container.js';
import { type Dialect, openTestDatabase } from '../support/test-database.js';
import { TEST_KEY, testConfig } from './test-app.js';

export const CYPRESS_KEY = 'cypress-test-key';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(value: unknown): string {
  const body = (value as { body?: unknown } | null)?.body;
  if (typeof body === 'string') return body.slice(0, 500);
  try {
    return JSON.stringify(value).slice(0, 500);
  } catch {
    return String(value);
  }
}

export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${describe(value)}`);
    await sleep(25);
    value = await read();
  }
  return value;
}

export const specRow = (
  project: string,
  runNumber: number | null,
  overrides: Partial<FakeSpecRow> = {},
): FakeSpecRow => ({
  project_name: project,
  run_number: runNumber,
  created_at: '2025-03-10T10:00:00.000Z',
  status: 'passed',
  spec: 'login.cy.ts',
  total_tests: 4,
  pass_tests: 4,
  fail_tests: 0,
  flaky_tests: 0,
  spec_duration: 12_000,
  commit_author_name: 'Ada Lovelace',
  commit_branch: 'main',
  ...overrides,
});

export interface ReportHarness {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  broker: Broker;
  fake: FakeCypress;
  metrics: Metrics;
  /** The container the API and the worker share (start more workers over it). */
  container: TestContainer;
  worker: ReportWorker | undefined;
  api(options: InjectOptions): Promise<LightMyRequestResponse>;
  createApp(name: string, watching?: boolean): Promise<number>;
  /** Polls `GET /api/e2e_run_report?date=` until it answers 200. */
  waitForReport(date: string, query?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The API and a report worker over one database and one broker (in-process by default), with
 * the Cypress fake as the test-results service. Retries are fast (REPORT_RETRY_BASE_MS=40).
 */
export async function startReportHarness(
  options: { dialect?: Dialect; env?: Record<string, string>; broker?: Broker; worker?: boolean } = {},
): Promise<ReportHarness> {
  const fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
  const config = testConfig({
    CYPRESS_BASE_URL: fake.url,
    CYPRESS_API_KEY: CYPRESS_KEY,
    REPORT_RETRY_BASE_MS: '40',
    EXTERNAL_TIMEOUT_MS: '2000',
    ...options.env,
  });
  const database = await openTestDatabase(options.dialect ?? 'sqlite');
  const broker = options.broker ?? createInProcessBroker({ namespace: `reports-test:${randomUUID()}:` });
  const metrics = createMetrics();
  const container = createTestContainer(config, { database, broker, metrics });
  const app = await buildApiRole(container);
  await app.ready();
  const worker = options.worker === false ? undefined : await startReportWorker(container);

  const api = (request: InjectOptions) =>
    app.inject({ ...request, headers: { 'x-api-key': TEST_KEY, ...(request.headers ?? {}) } });

  return {
    app,
    config,
    database,
    broker,
    fake,
    metrics,
    container,
    worker,
    api,
    async createApp(name, watching = true) {
      const response = await api({
        method: 'POST',
        url: '/api/apps',
        payload: {
          name,
          code: `${name}-${randomUUID().slice(0, 6)}`,
          pipelineUrl: 'https://ci.example.com/p',
          watching,
        },
      });
      if (response.statusCode !== 201) throw new Error(`app not created: ${response.body}`);
      return response.json<{ data: { id: number } }>().data.id;
    },
    async waitForReport(date, query = '') {
      return eventually(
        () => api({ method: 'GET', url: `/api/e2e_run_report?date=${date}${query}` }),
        (response) => response.statusCode !== 202,
      );
    },
    async close() {
      await worker?.stop(5000);
      await app.close();
      await container.close();
      if (!options.broker) await broker.close();
      await database.close();
      await fake.close();
    },
  };
}
