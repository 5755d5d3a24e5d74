import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../../support/databases.js';
import { createTestApp } from '../../../support/test-app.js';
import type { DatabaseHandle } from '../../../../src/db/database.js';
import { fakePullRequest, type FakeGitHub, startFakeGitHub } from '../../../fakes/fake-github.js';
import { createGitHubClient } from '../../../../src/integrations/github/github-client.js';
import type { NotificationInput } from '../../../../src/modules/notifications/notification-sink.js';
import { createPullRequestsRepository } from '../../../../src/modules/pull-requests/pull-requests.repository.js';
import { createPullRequestsService } from '../../../../src/modules/pull-requests/pull-requests.service.js';
import {
  createPullRequestSync,
  dueOpenEvents,
} from '../../../../src/modules/pull-requests/pull-requests.sync.js';

const NOW = new Date('2025-03-10T09:00:00.000Z');
const daysAgo = (days: number) =>
  new Date(NOW.getTime() - days * 86_400_000).toISOString().replace('.000', '');
const silent = { debug: () => undefined, warn: () => undefined };

describe('open-PR events', () => {
  it('sends ready for clean/unstable, conflicts for dirty, 3 and 7 days once each', () => {
    const none = new Set<string>();
    expect(dueOpenEvents({ created_at: daysAgo(1), mergeable_state: 'clean' }, none, NOW).send).toEqual([
      'ready',
    ]);
    expect(dueOpenEvents({ created_at: daysAgo(1), mergeable_state: 'unstable' }, none, NOW).send).toEqual([
      'ready',
    ]);
    expect(dueOpenEvents({ created_at: daysAgo(1), mergeable_state: 'blocked' }, none, NOW).send).toEqual([]);
    expect(dueOpenEvents({ created_at: daysAgo(3), mergeable_state: 'dirty' }, none, NOW).send).toEqual([
      'conflicts',
      'open_3_days',
    ]);
    expect(dueOpenEvents({ created_at: daysAgo(2.9), mergeable_state: 'blocked' }, none, NOW).send).toEqual(
      [],
    );
    const first7 = dueOpenEvents({ created_at: daysAgo(7), mergeable_state: 'blocked' }, none, NOW);
    expect(first7).toEqual({ send: ['open_7_days'], skip: ['open_3_days'] });
    const after3 = dueOpenEvents(
      { created_at: daysAgo(8), mergeable_state: 'blocked' },
      new Set(['open_3_days']),
      NOW,
    );
    expect(after3).toEqual({ send: ['open_7_days'], skip: [] });
    const all = new Set(['ready', 'conflicts', 'open_3_days', 'open_7_days']);
    expect(dueOpenEvents({ created_at: daysAgo(9), mergeable_state: 'clean' }, all, NOW).send).toEqual([]);
  });
});

describe('open-PR events of drafts and partial answers', () => {
  it('never sends ready for a draft, whatever its mergeable state', () => {
    const none = new Set<string>();
    for (const mergeable_state of ['clean', 'unstable', 'draft']) {
      expect(dueOpenEvents({ created_at: daysAgo(1), mergeable_state, draft: true }, none, NOW).send).toEqual(
        [],
      );
    }
    expect(
      dueOpenEvents({ created_at: daysAgo(1), mergeable_state: 'dirty', draft: true }, none, NOW).send,
    ).toEqual(['conflicts']);
    expect(
      dueOpenEvents({ created_at: daysAgo(4), mergeable_state: 'clean', draft: true }, none, NOW).send,
    ).toEqual(['open_3_days']);
  });

  it('sends no age event without created_at and no state event without mergeable_state', () => {
    expect(dueOpenEvents({ created_at: null, mergeable_state: 'clean' }, new Set(), NOW).send).toEqual([
      'ready',
    ]);
    expect(dueOpenEvents({ created_at: daysAgo(9), mergeable_state: null }, new Set(), NOW)).toEqual({
      send: ['open_7_days'],
      skip: ['open_3_days'],
    });
  });
});

describe.each(DIALECTS)('pull-request sync (%s)', (dialect) => {
  let github: FakeGitHub;
  let database: DatabaseHandle;
  let sent: NotificationInput[];

  beforeAll(async () => {
    github = await startFakeGitHub();
    database = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.close();
    await github.close();
  });
  beforeEach(async () => {
    sent = [];
    await database.db.deleteFrom('pull_requests').execute();
  });

  function build(notify = async (input: NotificationInput) => void sent.push(input)) {
    const repository = createPullRequestsRepository(database.db);
    const client = createGitHubClient({ github: { apiUrl: github.url }, externalTimeoutMs: 2000 }, silent);
    const service = createPullRequestsService({ repository, github: client, githubApiUrl: github.url });
    return {
      repository,
      service,
      sync: createPullRequestSync({ repository, service, notify, log: silent, now: () => NOW }),
    };
  }

  async function track(number: number, overrides: Record<string, unknown>) {
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', number, {
        created_at: daysAgo(1),
        mergeable_state: 'blocked',
        ...overrides,
      }),
    );
    const { service } = build();
    return (
      await service.create({ url: `https://github.com/acme/shop/pull/${number}`, title: `PR ${number}` })
    ).id;
  }

  it('notifies merged (then untracks), closed, ready, conflicts, 3 and 8 days open, each once', async () => {
    const merged = await track(1, { state: 'closed', merged_at: daysAgo(0.5), merged: true });
    const closed = await track(2, { state: 'closed' });
    const clean = await track(3, { mergeable_state: 'clean' });
    const dirty = await track(4, { mergeable_state: 'dirty' });
    const threeDays = await track(5, { created_at: daysAgo(3.5) });
    const eightDays = await track(6, { created_at: daysAgo(8) });
    const { sync, repository } = build();

    const first = await sync();
    expect(first.checked).toBe(6);
    expect(first.failed).toEqual([]);
    expect(first.removed).toEqual([merged]);
    expect(first.events).toEqual([
      { prId: merged, prNumber: 1, status: 'merged', event: 'merged' },
      { prId: closed, prNumber: 2, status: 'closed', event: 'closed' },
      { prId: clean, prNumber: 3, status: 'open', event: 'ready' },
      { prId: dirty, prNumber: 4, status: 'open', event: 'conflicts' },
      { prId: threeDays, prNumber: 5, status: 'open', event: 'open_3_days' },
      { prId: eightDays, prNumber: 6, status: 'open', event: 'open_7_days' },
    ]);
    expect(sent).toHaveLength(6);
    expect(sent.every((notification) => notification.type === 'pr_update')).toBe(true);
    expect(sent.map((notification) => notification.data)).toEqual(first.events);
    expect(sent[2]!.title).toContain('#3');
    expect(await repository.findById(merged)).toBeUndefined();
    expect((await repository.findById(closed))!.status).toBe('closed');
    expect((await repository.findById(eightDays))!.notified_events).toEqual(
      expect.arrayContaining(['open_7_days', 'open_3_days']),
    );

    const second = await sync();
    expect(second.events).toEqual([]);
    expect(second.checked).toBe(5);
    expect(sent).toHaveLength(6);
  });

  it('sends a later event when the PR changes (conflicts after ready), never one twice', async () => {
    const id = await track(10, { mergeable_state: 'clean' });
    const { sync } = build();
    expect((await sync()).events.map((event) => event.event)).toEqual(['ready']);
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 10, { created_at: daysAgo(1), mergeable_state: 'dirty' }),
    );
    expect((await sync()).events).toEqual([{ prId: id, prNumber: 10, status: 'open', event: 'conflicts' }]);
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 10, { created_at: daysAgo(1), mergeable_state: 'clean' }),
    );
    expect((await sync()).events).toEqual([]);
  });

  it('sends ready only once a draft leaves draft, and stores draft and mergeableState', async () => {
    const id = await track(11, { mergeable_state: 'clean', draft: true });
    const { sync, repository } = build();
    expect((await sync()).events).toEqual([]);
    expect((await repository.findById(id))!.mergeable_state).toBe('clean');
    expect(Boolean((await repository.findById(id))!.draft)).toBe(true);
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 11, { created_at: daysAgo(1), mergeable_state: 'clean', draft: false }),
    );
    expect((await sync()).events).toEqual([{ prId: id, prNumber: 11, status: 'open', event: 'ready' }]);
    expect(Boolean((await repository.findById(id))!.draft)).toBe(false);
    expect(sent.map((notification) => notification.title)).toEqual(['PR #11 ready to merge']);
  });

  it('reports a PR GitHub cannot provide as failed and goes on with the others', async () => {
    const ok = await track(20, { mergeable_state: 'clean' });
    const { service, sync } = build();
    const gone = (await service.create({ url: 'https://github.com/acme/gone/pull/1', title: 'gone' })).id;
    const result = await sync();
    expect(result.failed).toEqual([{ prId: gone, message: expect.any(String) }]);
    expect(result.events).toEqual([{ prId: ok, prNumber: 20, status: 'open', event: 'ready' }]);
  });

  it('retries an event whose notification failed on the next run', async () => {
    await track(30, { mergeable_state: 'clean' });
    let fail = true;
    const { sync } = build(async (input) => {
      if (fail) throw new Error('database down');
      sent.push(input);
    });
    expect((await sync()).events).toEqual([]);
    fail = false;
    expect((await sync()).events.map((event) => event.event)).toEqual(['ready']);
  });
});

describe('POST /api/pull_requests/sync', () => {
  it('answers 200 with the events sent and stores pr_update notifications', async () => {
    const github = await startFakeGitHub();
    const t = await createTestApp({ env: { GITHUB_URL: github.url } });
    try {
      github.setPull(
        'acme',
        'shop',
        fakePullRequest('acme', 'shop', 2, { state: 'closed', created_at: new Date().toISOString() }),
      );
      const created = await t.api({
        method: 'POST',
        url: '/api/pull_requests',
        payload: { url: 'https://github.com/acme/shop/pull/2' },
      });
      const id = created.json().data.id;
      const res = await t.api({ method: 'POST', url: '/api/pull_requests/sync' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          checked: 1,
          events: [{ prId: id, prNumber: 2, status: 'closed', event: 'closed' }],
          removed: [],
          failed: [],
        },
      });
      const rows = await t.database.db
        .selectFrom('notifications')
        .selectAll()
        .where('type', '=', 'pr_update')
        .execute();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.data!)).toMatchObject({
        prId: id,
        prNumber: 2,
        status: 'closed',
        event: 'closed',
      });
      expect((await t.app.inject({ method: 'POST', url: '/api/pull_requests/sync' })).statusCode).toBe(401);
    } finally {
      await t.close();
      await github.close();
    }
  });
});
