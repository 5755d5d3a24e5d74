import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fakePullRequest,
  type FakeGitHub,
  partialPullRequest,
  startFakeGitHub,
} from '../../../fakes/fake-github.js';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';

const URL_7 = 'https://github.com/acme/shop/pull/7';

describe.each(DIALECTS)('pull requests: what GitHub says, and partial answers (%s)', (dialect) => {
  let github: FakeGitHub;
  let t: TestApp;

  beforeAll(async () => {
    github = await startFakeGitHub();
    t = await createTestApp({ dialect, env: { GITHUB_URL: github.url, EXTERNAL_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await t.close();
    await github.close();
  });
  beforeEach(async () => {
    github.failWith = undefined;
    github.requests.length = 0;
    await t.database.db.deleteFrom('pull_requests').execute();
  });

  const create = (payload: Record<string, unknown>) =>
    t.api({ method: 'POST', url: '/api/pull_requests', payload });
  const detail = (id: number) => t.api({ method: 'GET', url: `/api/pull_requests/${id}` });
  const listed = async (id: number) =>
    (await t.api({ method: 'GET', url: '/api/pull_requests' }))
      .json()
      .data.find((pr: { id: number }) => pr.id === id);

  it('stores openedAt, draft and mergeableState when creation reads GitHub, on every view', async () => {
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 7, {
        created_at: '2025-02-01T10:20:30Z',
        draft: true,
        mergeable_state: 'draft',
      }),
    );
    const created = await create({ url: URL_7 });
    expect(created.statusCode).toBe(201);
    const expected = { openedAt: '2025-02-01T10:20:30.000Z', draft: true, mergeableState: 'draft' };
    expect(created.json().data).toMatchObject(expected);
    const { id } = created.json().data;
    expect(await listed(id)).toMatchObject(expected);
    expect((await detail(id)).json().data).toMatchObject(expected);
    const updated = await t.api({
      method: 'PUT',
      url: `/api/pull_requests/${id}`,
      payload: { title: 'Renamed' },
    });
    expect(updated.json().data).toMatchObject({ title: 'Renamed', ...expected });
  });

  it('has null fields until the pull request is read from GitHub, then keeps them current', async () => {
    const created = await create({ url: URL_7, title: 'Given title' });
    expect(created.json().data).toMatchObject({ openedAt: null, draft: null, mergeableState: null });
    expect(github.requests).toHaveLength(0);
    const { id } = created.json().data;

    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 7, { draft: true, mergeable_state: 'draft' }),
    );
    expect((await detail(id)).json().data).toMatchObject({
      openedAt: '2025-01-10T08:00:00.000Z',
      draft: true,
      mergeableState: 'draft',
    });
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 7, { draft: false, mergeable_state: 'dirty' }),
    );
    await detail(id);
    expect(await listed(id)).toMatchObject({ draft: false, mergeableState: 'dirty' });
  });

  it('fills the fields from the cached copy when GitHub answers 304', async () => {
    github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 7, { mergeable_state: 'unstable' }));
    const { id } = (await create({ url: URL_7 })).json().data;
    // As on a record stored before these columns existed.
    await t.database.db
      .updateTable('pull_requests')
      .set({ opened_at: null, draft: null, mergeable_state: null })
      .execute();
    const res = await detail(id);
    expect(github.requests.at(-1)?.status).toBe(304);
    expect(res.json().data).toMatchObject({
      openedAt: '2025-01-10T08:00:00.000Z',
      draft: false,
      mergeableState: 'unstable',
    });
    expect(await listed(id)).toMatchObject({ mergeableState: 'unstable' });
  });

  it('creates from an answer missing head, base, counts and other optional fields (title only)', async () => {
    const missing = [
      'head',
      'base',
      'commits',
      'additions',
      'deletions',
      'changed_files',
      'comments',
      'review_comments',
      'state',
      'draft',
      'mergeable',
      'mergeable_state',
      'created_at',
      'updated_at',
      'body',
      'user',
    ];
    github.setPull('acme', 'shop', partialPullRequest('acme', 'shop', 7, missing));
    github.setPull(
      'acme',
      'shop',
      partialPullRequest('acme', 'shop', 8, ['head', 'base', 'commits'], { number: 8 }),
    );
    const bare = await create({ url: URL_7 });
    expect(bare.statusCode).toBe(201);
    expect(bare.json().data).toMatchObject({
      title: 'Pull request 7',
      status: 'open',
      openedAt: null,
      draft: null,
      mergeableState: null,
    });
    const some = await create({ url: 'https://github.com/acme/shop/pull/8' });
    expect(some.statusCode).toBe(201);
    expect(some.json().data).toMatchObject({ title: 'Pull request 8', mergeableState: 'clean' });
  });

  it('serves the detail view with null for whatever GitHub left out or sent with another type', async () => {
    const { id } = (await create({ url: URL_7, title: 'Mine' })).json().data;
    github.setPull(
      'acme',
      'shop',
      partialPullRequest(
        'acme',
        'shop',
        7,
        ['head', 'base.sha', 'changed_files', 'user.login', 'created_at'],
        {
          commits: '3',
          draft: null,
          mergeable: null,
          merged_at: 42,
        },
      ),
    );
    const res = await detail(id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'Mine', status: 'open', openedAt: null, draft: null });
    expect(res.json().data.scmDetails).toMatchObject({
      number: 7,
      state: 'open',
      title: 'Pull request 7',
      head: null,
      base: null,
      changed_files: null,
      commits: null,
      additions: 40,
      created_at: null,
      merged_at: null,
      draft: null,
      mergeable: false,
      mergeable_state: 'clean',
      user: { login: '', avatar_url: expect.stringMatching(/^https:/) },
    });
  });

  it('keeps the stored status when GitHub does not say whether the pull request is open', async () => {
    const { id } = (await create({ url: URL_7, title: 'Mine' })).json().data;
    await t.api({ method: 'PUT', url: `/api/pull_requests/${id}`, payload: { status: 'closed' } });
    github.setPull('acme', 'shop', partialPullRequest('acme', 'shop', 7, ['state']));
    const res = await detail(id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'closed', scmDetails: { state: null } });
  });

  it('answers 502 and stores nothing when the answer has no title (the one field creation needs)', async () => {
    github.setPull('acme', 'shop', partialPullRequest('acme', 'shop', 7, ['title']));
    const res = await create({ url: URL_7 });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatchObject({
      code: 'EXTERNAL_SERVICE_ERROR',
      message: 'GitHub answered without a pull-request title',
    });
    expect((await t.api({ method: 'GET', url: '/api/pull_requests' })).json().data).toEqual([]);
  });
});
