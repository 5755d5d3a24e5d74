import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../../src/db/database.js';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { CYPRESS_KEY, eventually } from '../../support/report-harness.js';
import { type ServiceProcess, spawnService } from '../reports/processes.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../support/databases.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../support/test-app.js';

/**
 * The status page of an API process shows what a separate worker process met when it called the
 * test-results service: the two share only the database.
 */
describe.each(DIALECTS)('a Cypress failure in a worker process, seen on GET /api/status (%s)', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let fake: FakeCypress;
  let api: TestApp;
  let worker: ServiceProcess | undefined;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    database = openDatabase(testDb.config);
    await migrateToLatest(database.db);
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    fake.failures = Array.from({ length: 50 }, () => 500);
    const long = '2025-01-01T00:00:00.000Z';
    await database.db
      .insertInto('apps')
      .values({
        name: 'web',
        code: 'web',
        pipeline_url: 'https://ci.example.com/web',
        watching: 1,
        e2e_trigger_configuration: null,
        created_at: long,
        updated_at: long,
      })
      .execute();
    // A report request left pending long ago: the worker re-queues it as soon as it starts.
    await database.db
      .insertInto('e2e_report_summaries')
      .values({
        date: '2025-03-10',
        status: 'pending',
        total_runs: 0,
        passed_runs: 0,
        failed_runs: 0,
        success_rate: 0,
        created_at: long,
        updated_at: long,
      })
      .execute();
    api = await createTestApp({ database, env: { CYPRESS_API_KEY: CYPRESS_KEY } });
  });
  afterAll(async () => {
    await worker?.stop();
    await api.close();
    await database.close();
    await testDb.drop();
    await fake.close();
  });

  it('records the failure in the worker and the API answers it as lastError', async () => {
    const cypressStatus = async () =>
      (await api.api({ method: 'GET', url: '/api/status' })).json().data.integrations.cypress;
    expect(await cypressStatus()).toMatchObject({ configured: true, lastError: null });

    worker = spawnService('worker', {
      DATABASE_URL: testDb.url,
      API_SECURITY_KEY: TEST_KEY,
      CYPRESS_BASE_URL: fake.url,
      CYPRESS_API_KEY: CYPRESS_KEY,
      REPORT_STALE_MS: '1000',
      REPORT_RETRY_BASE_MS: '600000',
    });
    const seen = await eventually(cypressStatus, (status) => status.lastError !== null, 60_000).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}\nworker output:\n${worker?.output() ?? ''}`);
      },
    );
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(seen.lastError).toMatch(
      /^The test-results service answered 500 for http:\/\/127\.0\.0\.1:\d+\/\S*/,
    );
    expect(seen.lastError).not.toContain(CYPRESS_KEY);
    expect(seen.lastError).not.toContain('token');
    expect(seen.lastSuccessAt).toBeNull();
  });
});
