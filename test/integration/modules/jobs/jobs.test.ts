import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS, type Broker } from '../../../../src/broker/broker.js';
import { createInProcessBroker } from '../../../../src/broker/in-process-broker.js';
import { startLiveServer, type LiveServer } from '../../../support/live-server.js';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';
import { brokerThatIsDown } from '../../../support/test-container.js';
import { createJobRunsRepository } from '../../../../src/modules/jobs/jobs.repository.js';
import { JOB_NAMES } from '../../../../src/modules/jobs/jobs.schema.js';
import { nextRunOf } from '../../../../src/modules/jobs/jobs.service.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(DIALECTS)('jobs API (%s)', (dialect) => {
  let t: TestApp | undefined;
  let server: LiveServer | undefined;
  let broker: Broker | undefined;
  afterEach(async () => {
    await t?.close();
    await server?.close();
    await broker?.close();
    t = server = broker = undefined;
  });

  it('GET /api/jobs lists the four jobs, the quarantine review and the results retention with their default schedules', async () => {
    t = await createTestApp({ dialect });
    const res = await t.api({ method: 'GET', url: '/api/jobs' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.map((job: { name: string }) => job.name)).toEqual([...JOB_NAMES]);
    expect(body.data.map((job: { schedule: string }) => job.schedule)).toEqual([
      '0 9 * * *',
      '0 9 * * 1-5',
      '0 9 * * 1-5',
      '0 2 * * 0',
      '15 * * * *',
      '30 3 * * *',
    ]);
    for (const job of body.data) {
      expect(job).toMatchObject({ timezone: 'UTC', lastRun: null, lastResult: null, lastError: null });
      expect(job.nextRun).toMatch(ISO);
      expect(Date.parse(job.nextRun)).toBeGreaterThan(Date.now());
    }
    const sunday = body.data[3].nextRun as string;
    expect(new Date(sunday).getUTCDay()).toBe(0);
    expect(sunday.slice(11)).toBe('02:00:00.000Z');
  });

  it('follows the override variables and CRON_TZ', async () => {
    t = await createTestApp({
      dialect,
      env: { E2E_REPORT_CRON_SCHEDULE: '30 6 * * *', CRON_TZ: 'Europe/Paris' },
    });
    const [report] = (await t.api({ method: 'GET', url: '/api/jobs' })).json().data;
    expect(report).toMatchObject({ name: 'e2e-report', schedule: '30 6 * * *', timezone: 'Europe/Paris' });
    expect(report.nextRun).toBe(nextRunOf('30 6 * * *', 'Europe/Paris'));
    expect(['04:30:00.000Z', '05:30:00.000Z']).toContain(report.nextRun.slice(11));
  });

  it('needs the API key', async () => {
    t = await createTestApp({ dialect });
    const res = await t.app.inject({ method: 'GET', url: '/api/jobs' });
    expect(res.statusCode).toBe(401);
    const run = await t.app.inject({ method: 'POST', url: '/api/jobs/e2e-report/run' });
    expect(run.statusCode).toBe(401);
  });

  it('POST /api/jobs/:name/run answers 404 for an unknown job', async () => {
    t = await createTestApp({ dialect });
    const res = await t.api({ method: 'POST', url: '/api/jobs/no-such-job/run' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(res.json().error.message).toContain('e2e-report');
  });

  it('runs the report job now (202), publishes the request and records the run', async () => {
    broker = createInProcessBroker({ namespace: `jobs-api-${randomUUID()}:` });
    const received: unknown[] = [];
    await broker.subscribe(CHANNELS.reportGenerate, (message) => void received.push(message));
    server = await startLiveServer({ dialect, deps: { broker } });
    const accepted = await server.client.jobs.run('e2e-report');
    expect(accepted.success).toBe(true);
    expect(accepted.data).toMatchObject({
      job: 'e2e-report',
      finishedAt: null,
      durationMs: null,
      error: null,
    });
    expect(accepted.data.startedAt).toMatch(ISO);

    await expect.poll(async () => (await server!.client.jobs.list()).data[0]!.lastResult).toBe('success');
    const [report] = (await server.client.jobs.list()).data;
    expect(report!.lastRun).toBe(accepted.data.startedAt);
    expect(report!.lastDurationMs).toBeGreaterThanOrEqual(0);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({ date: new Date().toISOString().slice(0, 10) });

    const rows = await createJobRunsRepository(server.database.db).listFor('e2e-report', 10);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'success', error: null, started_at: accepted.data.startedAt });
    expect(Date.parse(rows[0]!.finished_at!)).toBeGreaterThanOrEqual(Date.parse(rows[0]!.started_at));
  });

  it('records a failed run with its error (the broker does not answer)', async () => {
    server = await startLiveServer({ dialect, deps: { broker: brokerThatIsDown() } });
    await server.client.jobs.run('e2e-report');
    await expect.poll(async () => (await server!.client.jobs.list()).data[0]!.lastResult).toBe('failed');
    const [report] = (await server.client.jobs.list()).data;
    expect(report!.lastError).toContain('does not answer');
  });

  it('runs delete-completed-todos through the API of the process that received the request', async () => {
    // Nothing answers at API_BASE_URL: the job can only succeed through this process's listener.
    server = await startLiveServer({ dialect, env: { API_BASE_URL: 'http://127.0.0.1:1' } });
    const { client } = server;
    await client.todos.create({ title: 'done', isCompleted: true });
    const kept = await client.todos.create({ title: 'open' });
    const accepted = await client.call<{ data: { id: number } }>(
      'POST',
      '/api/jobs/delete-completed-todos/run',
    );
    expect(accepted.data.id).toBeGreaterThan(0);
    await expect.poll(async () => (await client.jobs.list()).data[3]!.lastResult).toBe('success');
    expect((await client.todos.list()).data.map((todo) => todo.id)).toEqual([kept.data.id]);
  });
});

describe.each(DIALECTS)('job runs repository (%s)', (dialect) => {
  it('returns the latest run of each job', async () => {
    const t = await createTestApp({ dialect });
    try {
      const repository = createJobRunsRepository(t.database.db);
      const first = await repository.start('e2e-report', '2025-01-01T09:00:00.000Z');
      await repository.finish(first.id, {
        finishedAt: '2025-01-01T09:00:01.000Z',
        durationMs: 1000,
        outcome: 'failed',
        error: 'boom',
      });
      const second = await repository.start('e2e-report', '2025-01-02T09:00:00.000Z');
      await repository.start('pr-management', '2025-01-01T09:00:00.000Z');
      const latest = await repository.latestOf(['e2e-report', 'pr-management', 'delete-completed-todos']);
      expect(latest.get('e2e-report')).toMatchObject({
        id: second.id,
        outcome: 'running',
        finished_at: null,
      });
      expect(latest.get('pr-management')?.outcome).toBe('running');
      expect(latest.has('delete-completed-todos')).toBe(false);
      expect(await repository.pruneBefore('e2e-report', '2025-01-02T00:00:00.000Z')).toBe(1);
      expect((await repository.listFor('e2e-report', 10)).map((row) => row.id)).toEqual([second.id]);
    } finally {
      await t.close();
    }
  });
});

describe('job names', () => {
  it('resolves the canonical names and their usual variants, nothing else', async () => {
    const { resolveJobName } = await import('../../../../src/modules/jobs/jobs.schema.js');
    expect(resolveJobName('e2e-report')).toBe('e2e-report');
    expect(resolveJobName('deleteCompletedTodos')).toBe('delete-completed-todos');
    expect(resolveJobName('DELETE_COMPLETED_TODOS_SCHEDULE')).toBe('delete-completed-todos');
    expect(resolveJobName('Manual testing reminders')).toBe('manual-tickets-reminder');
    expect(resolveJobName('pull_request_management')).toBe('pr-management');
    expect(resolveJobName('E2E report generation')).toBe('e2e-report');
    expect(resolveJobName('e2eReport')).toBe('e2e-report');
    expect(resolveJobName('constructor')).toBeUndefined();
    expect(resolveJobName('report')).toBeUndefined();
  });
});
