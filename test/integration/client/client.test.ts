import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Broker } from '../../../src/broker/broker.js';
import { createInProcessBroker } from '../../../src/broker/in-process-broker.js';
import type { FakeCircleCi } from '../../fakes/fake-circleci.js';
import { fakePullRequest, type FakeGitHub } from '../../fakes/fake-github.js';
import { fakeJiraIssue, type FakeJira } from '../../fakes/fake-jira.js';
import { type IntegrationFakes, startIntegrationFakes } from '../../fakes/integration-fakes.js';
import { MY_TICKETS_JQL, manualQaJql } from '../../../src/modules/tracker/tracker.service.js';
import { DIALECTS } from '../../support/databases.js';
import { TEST_KEY } from '../../support/test-app.js';
import { DashboardApiError, DashboardClient } from '../../../src/client/index.js';
import { startLiveServer, type LiveServer } from '../../support/live-server.js';

describe.each(DIALECTS)('DashboardClient against the live server (%s)', (dialect) => {
  let server: LiveServer;
  let client: DashboardClient;
  let github: FakeGitHub;
  let jira: FakeJira;
  let circleci: FakeCircleCi;
  let fakes: IntegrationFakes;
  let broker: Broker;

  beforeAll(async () => {
    fakes = await startIntegrationFakes();
    ({ github, jira, circleci } = fakes);
    broker = createInProcessBroker({ namespace: `client-test-${randomUUID()}:` });
    server = await startLiveServer({ dialect, env: fakes.env, deps: { broker } });
    client = server.client;
  });
  afterAll(async () => {
    await server.close();
    await broker.close();
    await fakes.close();
  });

  it('health and auth', async () => {
    const health = await client.health();
    expect(health).toMatchObject({ status: 'ok', httpStatus: 200, checks: { database: { status: 'ok' } } });
    expect(await client.auth.validate(TEST_KEY)).toMatchObject({ valid: true });
    expect(await client.auth.validate('not-the-key-0123456789abcdefghijkl')).toEqual({
      valid: false,
      message: 'Invalid API key',
      attemptsRemaining: 2,
    });
    await client.auth.validate(TEST_KEY); // a success clears the failure above
    const wrongKey = new DashboardClient({ baseUrl: server.baseUrl, apiKey: 'wrong', retries: 0 });
    await expect(wrongKey.apps.list()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await client.auth.validate(TEST_KEY);
  });

  it('status', async () => {
    const { data } = await client.status();
    expect(data).toMatchObject({ database: { dialect }, broker: { kind: 'in-process', status: 'ok' } });
    expect(data.integrations.github).toMatchObject({ configured: true, missing: [] });
    expect(data.integrations.cypress).toEqual({
      configured: false,
      missing: ['CYPRESS_API_KEY'],
      lastSuccessAt: null,
      lastError: null,
    });
    expect(data.jobs.map((job) => job.name)).toContain('pr-management');
  });

  it('applications', async () => {
    const created = await client.apps.create({
      name: 'Shop',
      code: `shop-${dialect}`,
      pipelineUrl: 'https://app.circleci.com/pipelines/gh/acme/shop',
      e2eTriggerConfiguration: { enabled: true },
    });
    expect(created.data).toMatchObject({ name: 'Shop', lastRun: null, e2eRunsQuantity: 0 });
    const { id } = created.data;
    expect((await client.apps.get(id)).data.code).toBe(`shop-${dialect}`);
    expect((await client.apps.update(id, { watching: false })).data.watching).toBe(false);
    expect((await client.apps.list({ limit: 1 })).pagination).toMatchObject({ limit: 1, offset: 0 });
    expect((await client.apps.listAll()).map((app) => app.id)).toContain(id);
    expect((await client.apps.runsToday()).data.apps).toContainEqual({
      appId: id,
      source: null,
      ciRuns: null,
      manualRuns: 0,
    });
    const duplicate = await client.apps
      .create({ name: 'Again', code: `shop-${dialect}`, pipelineUrl: 'https://ci.example.com/x' })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(DashboardApiError);
    expect(duplicate).toMatchObject({ status: 409, code: 'CONFLICT' });
    // What a user interface shows: the service's wording alone, without method, path and code.
    const { message, serviceMessage } = duplicate as DashboardApiError;
    expect(message).toMatch(/^POST \/api\/apps failed with 409 CONFLICT: /);
    expect(message.endsWith(serviceMessage)).toBe(true);
    expect(serviceMessage).not.toMatch(/POST|\/api\/apps|409/);

    // Manual runs go with an application.
    const run = await client.manualRuns.trigger(id);
    expect(run.data).toMatchObject({ appId: id, status: 'created' });
    expect((await client.manualRuns.list({ appId: id })).data.map((r) => r.id)).toEqual([run.data.id]);
    expect(circleci.pipelines).toHaveLength(1);

    expect((await client.apps.remove(id)).message).toContain(String(id));
    await expect(client.apps.get(id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('to-do items', async () => {
    const item = await client.todos.create({ title: 'Write <b>tests</b>', dueDate: '2030-01-02' });
    expect(item.data).toMatchObject({ title: 'Write tests', dueDate: '2030-01-02T00:00:00.000Z' });
    expect((await client.todos.get(item.data.id)).data.id).toBe(item.data.id);
    expect((await client.todos.update(item.data.id, { isCompleted: true })).data.isCompleted).toBe(true);
    expect((await client.todos.list({ order: 'desc' })).data.length).toBeGreaterThanOrEqual(1);
    const error = await client.todos.create({ title: '   ' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect((error as DashboardApiError).details).toEqual([expect.objectContaining({ field: 'title' })]);
    expect((await client.todos.deleteCompleted()).data.deleted).toBeGreaterThanOrEqual(1);
    await expect(client.todos.remove(item.data.id)).rejects.toMatchObject({ status: 404 });
  });

  it('pull requests', async () => {
    github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 21, { title: 'Add cart' }));
    const url = 'https://github.com/acme/shop/pull/21';
    const created = await client.pullRequests.create({ url });
    expect(created.data).toMatchObject({
      url,
      title: 'Add cart',
      status: 'open',
      openedAt: '2025-01-10T08:00:00.000Z',
      draft: false,
      mergeableState: 'clean',
    });
    const detail = await client.pullRequests.get(created.data.id);
    expect(detail.data.scmDetails).toMatchObject({ number: 21, state: 'open' });
    expect((await client.pullRequests.update(created.data.id, { title: 'Cart' })).data.title).toBe('Cart');
    expect((await client.pullRequests.list({ status: 'open' })).data.map((pr) => pr.id)).toContain(
      created.data.id,
    );
    const sync = await client.pullRequests.sync();
    expect(sync.data.checked).toBeGreaterThanOrEqual(1);
    await expect(client.pullRequests.create({ url })).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect((await client.pullRequests.remove(created.data.id)).success).toBe(true);
  });

  it('tracker tickets', async () => {
    jira.setIssues(manualQaJql('QA'), [fakeJiraIssue(5)]);
    jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(8), fakeJiraIssue(9)]);
    const manual = await client.tracker.manualQa();
    expect(manual.data).toMatchObject({ total: 1, issues: [{ key: 'QA-5' }] });
    expect((await client.tracker.myTickets()).data.total).toBe(2);
  });

  it('notifications and push tokens', async () => {
    const created = await client.notifications.create({ title: 'Hi', message: 'There', type: 'system' });
    const { id } = created.data;
    expect((await client.notifications.get(id)).data).toMatchObject({ title: 'Hi', isRead: false });
    expect((await client.notifications.update(id, { message: 'Changed' })).data.message).toBe('Changed');
    await client.notifications.markRead(id);
    expect((await client.notifications.list({ isRead: true })).data.map((n) => n.id)).toContain(id);
    await client.notifications.create({ title: 'A', message: 'B', type: 'info' });
    await client.notifications.create({ title: 'C', message: 'D', type: 'system' });
    expect((await client.notifications.readAll({ type: 'info' })).data.updated).toBe(1);
    expect((await client.notifications.readAll()).data.updated).toBeGreaterThanOrEqual(1);
    expect((await client.notifications.list({ isRead: false })).data).toEqual([]);
    await expect(client.notifications.readAll({ type: 'bogus' as 'info' })).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    await client.notifications.remove(id);
    await expect(client.notifications.get(id)).rejects.toMatchObject({ status: 404 });
    expect((await client.push.register('device-token-1')).success).toBe(true);
    expect((await client.push.register('device-token-1')).success).toBe(true);
    expect((await client.push.unregister('device-token-1')).success).toBe(true);
  });

  it('E2E reports', async () => {
    const date = '2025-02-03';
    const pending = await client.reports.run({ date, enrichments: { includeDetails: false } });
    expect(pending.summary).toMatchObject({ date, status: 'pending' });
    expect((await client.reports.summary(date)).data.status).toBe('pending');
    expect((await client.reports.summaries({ status: 'pending' })).data.map((s) => s.date)).toContain(date);
    expect((await client.reports.summaryWithDetails(date)).data.details).toEqual([]);
    expect((await client.reports.trends(7)).data.days).toBe(7);
    expect((await client.reports.queue()).success).toBe(true);
    expect((await client.reports.deadLetters()).data).toEqual([]);
    expect((await client.reports.replayDeadLetters()).data.replayed).toBe(0);
    await expect(client.reports.run({ date: '2025-02-30' })).rejects.toMatchObject({ status: 400 });
    await expect(client.reports.detail(999_999, 1)).rejects.toMatchObject({ status: 404 });
    await expect(client.reports.specs(999_999, 1, { limit: 5 })).rejects.toMatchObject({ status: 404 });
    await expect(client.reports.specs(0, 1)).rejects.toMatchObject({ status: 400 });
    await expect(client.reports.failureGroups(999_999, 1)).rejects.toMatchObject({ status: 404 });
    await expect(client.apps.suspects(999_999, { spec: 'a.cy.ts', date })).rejects.toMatchObject({
      status: 404,
    });
    await expect(client.apps.suspects(1, { spec: 'a.cy.ts', date: 'soon' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(client.reports.changes(date)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(client.reports.changes('2025-02-30')).rejects.toMatchObject({ status: 400 });
  });

  it('scheduled jobs', async () => {
    const { data } = await client.jobs.list();
    expect(data.map((job) => job.name)).toEqual([
      'e2e-report',
      'pr-management',
      'manual-tickets-reminder',
      'delete-completed-todos',
      'quarantine-review',
      'results-retention',
    ]);
    const accepted = await client.jobs.run('delete-completed-todos');
    expect(accepted.data.job).toBe('delete-completed-todos');
    await expect(client.jobs.run('nope')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
