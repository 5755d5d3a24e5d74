import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { TEST_KEY } from '../../support/test-app.js';
import { CYPRESS_KEY, eventually, specRow } from '../../support/report-harness.js';
import { freePort, type ServiceProcess, spawnService, waitUntilHealthy } from './processes.js';

/** The embedded default: one process, every role, SQLite file, in-process broker. */
describe('report pipeline in the embedded default (one process, in-process broker)', () => {
  let fake: FakeCypress;
  let service: ServiceProcess;
  let dir: string;
  let baseUrl: string;

  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    fake = await startFakeCypress({ apiKey: CYPRESS_KEY });
    fake.rows = [specRow('web', 1), specRow('web', 2, { status: 'failed' })];
    dir = mkdtempSync(join(tmpdir(), 'embedded-reports-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    service = spawnService('api,worker,scheduler', {
      DATABASE_URL: `sqlite:${join(dir, 'dashboard.sqlite')}`,
      API_SECURITY_KEY: TEST_KEY,
      CYPRESS_BASE_URL: fake.url,
      CYPRESS_API_KEY: CYPRESS_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    await waitUntilHealthy(baseUrl);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes, processes and serves a report; SIGTERM stops cleanly', async () => {
    const created = await call('/api/apps', {
      method: 'POST',
      body: JSON.stringify({ name: 'web', code: 'web', pipelineUrl: 'https://ci.example.com/web' }),
    });
    expect(created.status).toBe(201);
    expect((await call('/api/e2e_run_report?date=2025-03-15')).status).toBe(202);
    const ready = await eventually(
      () => call('/api/e2e_run_report?date=2025-03-15'),
      (response) => response.status === 200,
      20_000,
    );
    expect(ready.body.summary).toMatchObject({
      status: 'ready',
      totalRuns: 2,
      passedRuns: 1,
      successRate: 0.5,
    });
    const queue = await call('/api/e2e_reports/queue');
    expect(queue.body.data).toMatchObject({ broker: 'in-process', queued: 0, inFlight: 0 });
    const health = await fetch(`${baseUrl}/health`).then(
      (r) => r.json() as Promise<{ checks: { broker: { status: string } } }>,
    );
    expect(health.checks.broker.status).toBe('ok');
    expect(await service.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
