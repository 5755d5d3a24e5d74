import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeJira, startFakeJira } from '../../../fakes/fake-jira.js';
import { DIALECTS } from '../../../support/databases.js';
import { freePort } from '../../../support/free-port.js';
import { type LiveServer, startLiveServer } from '../../../support/live-server.js';

const JIRA = { email: 'bot@example.com', apiToken: 'jira-token-for-review-tests' };
const START = Date.parse('2026-03-02T09:00:00.000Z');
const HOUR = 3_600_000;

/**
 * The quarantine-review job over HTTP: the scheduler's job calls the API through the typed
 * client, and the API asks the fake Jira over HTTP. The service's clock is moved by the test.
 */
describe.each(DIALECTS)('quarantine review job (%s)', (dialect) => {
  let server: LiveServer;
  let jira: FakeJira;
  let now: number;
  let appId: number;

  beforeEach(async () => {
    now = START;
    jira = await startFakeJira(JIRA);
    server = await startLiveServer({
      dialect,
      env: { JIRA_BASE_URL: jira.url, JIRA_EMAIL: JIRA.email, JIRA_API_TOKEN: JIRA.apiToken },
      deps: { clock: () => now },
    });
    appId = (
      await server.client.apps.create({
        name: 'shop',
        code: 'shop',
        pipelineUrl: 'https://ci.example.com/shop',
      })
    ).data.id;
  });
  afterEach(async () => {
    await server.close();
    await jira.close();
  });

  const quarantine = async (spec: string, extra: { ticketKey?: string; expiresAt?: string } = {}) =>
    (await server.client.quarantine.create({ appId, spec, reason: 'known failure', ...extra })).data.id;

  /** Starts the job and resolves with its finished entry of GET /api/jobs. */
  async function runJob(name: 'quarantine-review' | 'e2e-report') {
    const accepted = await server.client.jobs.run(name);
    let job;
    await expect
      .poll(async () => {
        job = (await server.client.jobs.list()).data.find((entry) => entry.name === name)!;
        return job.lastRun === accepted.data.startedAt && job.lastResult !== 'running';
      })
      .toBe(true);
    return job!;
  }
  const infoNotifications = async () =>
    (await server.client.notifications.list({ type: 'info' })).data.map((n) => `${n.title} ${n.message}`);

  it('lifts the quarantine whose ticket moved to done (ticket_done), one info notification, others kept', async () => {
    jira.setIssueStatus('SHOP-1', { name: 'In Progress', category: 'indeterminate' });
    jira.setIssueStatus('SHOP-2', { name: 'To Do', category: 'new' });
    const first = await quarantine('checkout.cy.ts', { ticketKey: 'SHOP-1' });
    const second = await quarantine('search.cy.ts', { ticketKey: 'SHOP-2' });
    const untracked = await quarantine('legacy.cy.ts');

    expect((await runJob('quarantine-review')).lastResult).toBe('success');
    expect((await server.client.quarantine.list({ active: true })).data).toHaveLength(3);
    expect(await infoNotifications()).toEqual([]);

    jira.setIssueStatus('SHOP-1', { name: 'Done', category: 'done' });
    expect((await runJob('quarantine-review')).lastResult).toBe('success');
    const lifted = (await server.client.quarantine.get(first)).data;
    expect(lifted).toMatchObject({ liftedReason: 'ticket_done', liftedAt: new Date(now).toISOString() });
    for (const id of [second, untracked]) {
      expect((await server.client.quarantine.get(id)).data.liftedAt).toBeNull();
    }
    const notes = await infoNotifications();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('shop');
    expect(notes[0]).toContain('checkout.cy.ts');
    expect(notes[0]).toContain('SHOP-1');

    // The fake saw the single-issue reads with the configured Basic credential.
    const reads = jira.requests.filter((request) => request.path === '/rest/api/3/issue/SHOP-1');
    expect(reads.length).toBe(2);
    expect(reads.every((request) => request.status === 200)).toBe(true);

    // A later run does not lift or announce it again.
    await runJob('quarantine-review');
    expect(await infoNotifications()).toHaveLength(1);
  });

  it('lifts expired quarantines once the clock passes their expiry (expired)', async () => {
    const expiresAt = new Date(now + HOUR).toISOString();
    const id = await quarantine('checkout.cy.ts', { expiresAt });
    await runJob('quarantine-review');
    expect((await server.client.quarantine.get(id)).data.liftedAt).toBeNull();

    now += 2 * HOUR;
    expect((await runJob('quarantine-review')).lastResult).toBe('success');
    expect((await server.client.quarantine.get(id)).data).toMatchObject({
      liftedReason: 'expired',
      liftedAt: new Date(now).toISOString(),
    });
    const notes = await infoNotifications();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('shop');
    expect(notes[0]).toContain('checkout.cy.ts');
    expect(notes[0]).toContain('expired');
    // Expired before Jira is asked: no call for a quarantine without a ticket.
    expect(jira.requests).toHaveLength(0);
  });

  it('leaves them as they are while Jira is down, shows it on /api/status, and lifts them next time', async () => {
    jira.setIssueStatus('SHOP-7', { name: 'Done', category: 'done' });
    const ticketed = await quarantine('checkout.cy.ts', { ticketKey: 'SHOP-7' });
    const expiring = await quarantine('search.cy.ts', { expiresAt: new Date(now + HOUR).toISOString() });
    now += 2 * HOUR;
    jira.failWith = 503;

    const failed = await runJob('quarantine-review');
    expect(failed.lastResult).toBe('failed');
    expect(failed.lastError).toContain('Jira answered 503');
    expect((await server.client.quarantine.get(ticketed)).data.liftedAt).toBeNull();
    // What needs no tracker is still done.
    expect((await server.client.quarantine.get(expiring)).data.liftedReason).toBe('expired');
    await expect
      .poll(async () => (await server.client.status()).data.integrations.jira.lastError)
      .toContain('Jira answered 503');

    jira.failWith = undefined;
    expect((await runJob('quarantine-review')).lastResult).toBe('success');
    expect((await server.client.quarantine.get(ticketed)).data.liftedReason).toBe('ticket_done');
  });

  it('runs the review before the daily report job requests the report', async () => {
    jira.setIssueStatus('SHOP-9', { name: 'Done', category: 'done' });
    const id = await quarantine('checkout.cy.ts', { ticketKey: 'SHOP-9' });
    expect((await runJob('e2e-report')).lastResult).toBe('success');
    expect((await server.client.quarantine.get(id)).data.liftedReason).toBe('ticket_done');
  });
});

describe.each(DIALECTS)('quarantine review with Jira unreachable (%s)', (dialect) => {
  it('keeps the quarantine, says so in the answer and on /api/status', async () => {
    const closedPort = await freePort();
    const server = await startLiveServer({
      dialect,
      env: {
        JIRA_BASE_URL: `http://127.0.0.1:${closedPort}`,
        JIRA_EMAIL: JIRA.email,
        JIRA_API_TOKEN: JIRA.apiToken,
      },
    });
    try {
      const { client } = server;
      const appId = (
        await client.apps.create({ name: 'shop', code: 'shop', pipelineUrl: 'https://ci.example.com' })
      ).data.id;
      const id = (
        await client.quarantine.create({ appId, spec: 'a.cy.ts', reason: 'known', ticketKey: 'SHOP-1' })
      ).data.id;
      const review = await client.quarantine.review();
      expect(review.data).toEqual({ lifted: [], unchecked: 1, trackerError: 'Jira could not be reached' });
      expect((await client.quarantine.get(id)).data.liftedAt).toBeNull();
      await expect
        .poll(async () => (await client.status()).data.integrations.jira.lastError)
        .toBe('Jira could not be reached');
    } finally {
      await server.close();
    }
  });
});

describe.each(DIALECTS)('quarantine review without Jira (%s)', (dialect) => {
  it('keeps ticketed quarantines (the run fails, naming the missing variables) and still lifts expired ones', async () => {
    let now = START;
    const server = await startLiveServer({ dialect, deps: { clock: () => now } });
    try {
      const { client } = server;
      const appId = (
        await client.apps.create({ name: 'shop', code: 'shop', pipelineUrl: 'https://ci.example.com' })
      ).data.id;
      const base = { appId, reason: 'known' };
      const ticketed = (await client.quarantine.create({ ...base, spec: 'a.cy.ts', ticketKey: 'SHOP-1' }))
        .data.id;
      const expiring = (
        await client.quarantine.create({
          ...base,
          spec: 'b.cy.ts',
          expiresAt: new Date(now + HOUR).toISOString(),
        })
      ).data.id;
      now += 2 * HOUR;
      const review = await client.quarantine.review();
      expect(review.data).toMatchObject({
        unchecked: 1,
        lifted: [{ id: expiring, liftedReason: 'expired' }],
      });
      expect(review.data.trackerError).toContain('JIRA_BASE_URL');
      expect((await client.quarantine.get(ticketed)).data.liftedAt).toBeNull();
    } finally {
      await server.close();
    }
  });
});
