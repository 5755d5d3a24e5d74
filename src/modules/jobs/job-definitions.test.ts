import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Broker, type Channel, CHANNELS } from '../../broker/broker.js';
import { createInProcessBroker } from '../../broker/in-process-broker.js';
import { startLiveServer, type LiveServer } from '../../../test/support/live-server.js';
import { fakeJiraIssue, startFakeJira, type FakeJira } from '../../../test/fakes/fake-jira.js';
import { fakePullRequest, startFakeGitHub, type FakeGitHub } from '../../../test/fakes/fake-github.js';
import { manualQaJql } from '../tracker/tracker.service.js';
import { testConfig } from '../../../test/support/test-app.js';
import { createJobs, dateIn, type JobsApi } from './job-definitions.js';
import { createJobsApi } from './jobs-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A real in-process broker in its own namespace, with everything published on a channel recorded. */
async function recordingBroker(channel: Channel) {
  const broker = createInProcessBroker({ namespace: `jobs-test-${randomUUID()}:` });
  const received: unknown[] = [];
  await broker.subscribe(channel, (message) => {
    received.push(message);
  });
  return { broker, received };
}

const unusedApi: JobsApi = {
  syncPullRequests: () => Promise.reject(new Error('not expected')),
  deleteCompletedTodos: () => Promise.reject(new Error('not expected')),
  fetchManualQaTickets: () => Promise.reject(new Error('not expected')),
  reviewQuarantines: () => Promise.reject(new Error('not expected')),
};

describe('E2E report job', () => {
  it('publishes {date: today, requestId: uuid} on e2e:report:generate', async () => {
    const { broker, received } = await recordingBroker(CHANNELS.reportGenerate);
    const jobs = createJobs(testConfig(), { broker, api: unusedApi, timezone: 'UTC' });
    await jobs['e2e-report'].run();
    await expect.poll(() => received.length).toBe(1);
    const message = received[0] as { date: string; requestId: string };
    expect(Object.keys(message).sort()).toEqual(['date', 'requestId']);
    expect(message.date).toBe(new Date().toISOString().slice(0, 10));
    expect(message.requestId).toMatch(UUID);
    await broker.close();
  });

  it('takes "today" in CRON_TZ and a fresh requestId per run', async () => {
    const { broker, received } = await recordingBroker(CHANNELS.reportGenerate);
    const at = new Date('2025-03-01T23:30:00.000Z');
    const jobs = createJobs(testConfig({ CRON_TZ: 'Asia/Tokyo' }), {
      broker,
      api: unusedApi,
      timezone: 'Asia/Tokyo',
      now: () => at,
    });
    await jobs['e2e-report'].run();
    await jobs['e2e-report'].run();
    await expect.poll(() => received.length).toBe(2);
    const messages = received as { date: string; requestId: string }[];
    expect(messages.map((m) => m.date)).toEqual(['2025-03-02', '2025-03-02']);
    expect(messages[0]!.requestId).not.toBe(messages[1]!.requestId);
    expect(dateIn('America/Los_Angeles', at)).toBe('2025-03-01');
    await broker.close();
  });

  it('reviews the quarantines before it requests the report, and requests it even when the review fails', async () => {
    const order: string[] = [];
    const broker = {
      publish: (channel: string) => {
        order.push(`publish ${channel}`);
        return Promise.resolve();
      },
    } satisfies Pick<Broker, 'publish'>;
    let reviewFails = false;
    const api: JobsApi = {
      ...unusedApi,
      reviewQuarantines: () => {
        order.push('review');
        return reviewFails
          ? Promise.reject(new Error('API down'))
          : Promise.resolve({ lifted: [], unchecked: 0, trackerError: null });
      },
    };
    const jobs = createJobs(testConfig(), { broker, api, timezone: 'UTC' });
    expect(await jobs['e2e-report'].run()).toMatchObject({ quarantineReview: { lifted: 0 } });
    reviewFails = true;
    expect(await jobs['e2e-report'].run()).toMatchObject({ quarantineReview: { failed: 'API down' } });
    expect(order).toEqual([
      'review',
      `publish ${CHANNELS.reportGenerate}`,
      'review',
      `publish ${CHANNELS.reportGenerate}`,
    ]);
  });

  it('fails (so the run is recorded as failed) when the broker refuses the message', async () => {
    const broker = { publish: () => Promise.reject(new Error('broker down')) } satisfies Pick<
      Broker,
      'publish'
    >;
    const jobs = createJobs(testConfig(), { broker, api: unusedApi, timezone: 'UTC' });
    await expect(jobs['e2e-report'].run()).rejects.toThrow('broker down');
  });
});

describe('jobs against the live API and fake services', () => {
  let server: LiveServer | undefined;
  let jira: FakeJira | undefined;
  let github: FakeGitHub | undefined;
  let broker: Broker | undefined;
  afterEach(async () => {
    await server?.close();
    await jira?.close();
    await github?.close();
    await broker?.close();
    server = jira = github = broker = undefined;
  });

  async function withJira() {
    jira = await startFakeJira({ email: 'qa@example.com', apiToken: 'jira-token' });
    const recording = await recordingBroker(CHANNELS.notificationCreate);
    broker = recording.broker;
    server = await startLiveServer({
      env: {
        JIRA_BASE_URL: jira.url,
        JIRA_EMAIL: 'qa@example.com',
        JIRA_API_TOKEN: 'jira-token',
        JIRA_MANUAL_QA_PROJECT: 'QA',
        TRACKER_CACHE_MS: '0',
      },
      deps: { broker },
    });
    const client = server.client;
    const jobs = createJobs(server.config, { broker, api: createJobsApi(client), timezone: 'UTC' });
    return { jira, jobs, received: recording.received, server };
  }

  it('manual testing reminder: one info notification with the count and keys, stored by the server', async () => {
    const { jira, jobs, received, server } = await withJira();
    jira.setIssues(manualQaJql('QA'), [fakeJiraIssue(7), fakeJiraIssue(3)]);
    await expect(jobs['manual-tickets-reminder'].run()).resolves.toEqual({ count: 2, notified: true });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({
      title: 'Manual testing reminder',
      message: '2 tickets need manual testing',
      type: 'info',
      data: { count: 2, keys: ['QA-7', 'QA-3'] },
    });
    // The API process consumes notification:create: the reminder becomes a stored notification.
    await expect
      .poll(async () => (await server.client.notifications.list({ type: 'info' })).data)
      .toHaveLength(1);
    const [stored] = (await server.client.notifications.list({ type: 'info' })).data;
    expect(stored).toMatchObject({
      message: '2 tickets need manual testing',
      data: { count: 2, keys: ['QA-7', 'QA-3'] },
    });
  });

  it('manual testing reminder: no notification when the query finds nothing', async () => {
    const { jira, jobs, received, server } = await withJira();
    jira.setIssues(manualQaJql('QA'), []);
    await expect(jobs['manual-tickets-reminder'].run()).resolves.toEqual({ count: 0, notified: false });
    expect(jira.requests).toHaveLength(1);
    // Give a wrongly published message the time to arrive before saying none came.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([]);
    expect((await server.client.notifications.list()).data).toEqual([]);
  });

  it('manual testing reminder fails when the tracker fails (502 reaches the job)', async () => {
    const { jira, jobs, received } = await withJira();
    jira.failWith = 500;
    await expect(jobs['manual-tickets-reminder'].run()).rejects.toMatchObject({
      code: 'EXTERNAL_SERVICE_ERROR',
    });
    expect(received).toEqual([]);
  });

  it('delete completed to-dos: removes exactly the completed items through the API', async () => {
    server = await startLiveServer();
    const { client } = server;
    await client.todos.create({ title: 'done 1', isCompleted: true });
    const open = await client.todos.create({ title: 'still open' });
    await client.todos.create({ title: 'done 2', isCompleted: true });
    const jobs = createJobs(server.config, {
      broker: { publish: () => Promise.reject(new Error('not expected')) },
      api: createJobsApi(client),
      timezone: 'UTC',
    });
    await expect(jobs['delete-completed-todos'].run()).resolves.toEqual({ deleted: 2 });
    expect((await client.todos.list()).data.map((todo) => todo.id)).toEqual([open.data.id]);
    await expect(jobs['delete-completed-todos'].run()).resolves.toEqual({ deleted: 0 });
  });

  it('pull request management: calls the sync endpoint, which refreshes tracked pull requests', async () => {
    github = await startFakeGitHub({ token: 'ghp_jobs_test_token_0123456789abcdef' });
    github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 12));
    server = await startLiveServer({
      env: { GITHUB_URL: github.url, GITHUB_TOKEN: 'ghp_jobs_test_token_0123456789abcdef' },
    });
    const { client } = server;
    const tracked = await client.pullRequests.create({ url: 'https://github.com/acme/shop/pull/12' });
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 12, {
        state: 'closed',
        merged: true,
        merged_at: '2025-01-12T10:00:00Z',
      }),
    );
    const before = github.requests.length;
    const jobs = createJobs(server.config, {
      broker: { publish: () => Promise.reject(new Error('not expected')) },
      api: createJobsApi(client),
      timezone: 'UTC',
    });
    const result = (await jobs['pr-management'].run()) as { events: { prId: number; event: string }[] };
    expect(github.requests.length).toBeGreaterThan(before);
    expect(result.events).toEqual([expect.objectContaining({ prId: tracked.data.id, event: 'merged' })]);
    expect((await client.pullRequests.list()).data).toEqual([]);
  });
});
