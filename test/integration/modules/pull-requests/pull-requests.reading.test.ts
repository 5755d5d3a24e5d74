import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import type { TestApp } from '../../../support/test-app.js';
import { fakePullRequest, type FakeGitHub } from '../../../fakes/fake-github.js';
import { pullRequestsSuite } from './pull-requests-support.js';

// Reading tracked PRs: one PR with what GitHub says of it (and when GitHub fails), and the list.
describe.each(DIALECTS)('pull requests API: reading (%s)', (dialect) => {
  const { suite, create } = pullRequestsSuite(dialect);
  let github: FakeGitHub;
  let t: TestApp;
  beforeAll(() => {
    ({ github, t } = suite);
  });

  it('returns every scmDetails field, keeps status current, and serves a repeated view through a 304', async () => {
    const pull = fakePullRequest('acme', 'shop', 21, {
      body: null,
      mergeable: null,
      mergeable_state: 'unknown',
    });
    github.setPull('acme', 'shop', pull);
    const id = (await create({ url: 'https://github.com/acme/shop/pull/21', title: 'Mine' })).json().data.id;

    const first = await t.api({ method: 'GET', url: `/api/pull_requests/${id}` });
    expect(first.statusCode).toBe(200);
    const data = first.json().data;
    expect(data).toMatchObject({
      id,
      title: 'Mine',
      status: 'open',
      url: 'https://github.com/acme/shop/pull/21',
    });
    expect(data.scmDetails).toEqual({
      number: 21,
      state: 'open',
      title: 'Pull request 21',
      body: '',
      user: { login: 'octocat', avatar_url: 'https://avatars.githubusercontent.com/u/1?v=4' },
      created_at: '2025-01-10T08:00:00Z',
      updated_at: '2025-01-10T08:00:00Z',
      merged_at: null,
      draft: false,
      head: { ref: 'feature', sha: 'a'.repeat(40) },
      base: { ref: 'main', sha: 'b'.repeat(40) },
      mergeable: false,
      mergeable_state: 'unknown',
      comments: 1,
      review_comments: 2,
      commits: 3,
      additions: 40,
      deletions: 5,
      changed_files: 4,
    });

    const remaining = github.rateLimitRemaining;
    const second = await t.api({ method: 'GET', url: `/api/pull_requests/${id}` });
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toEqual(data);
    expect(github.requests.at(-1)).toMatchObject({ status: 304 });
    expect(github.requests.at(-1)!.headers['if-none-match']).toBeTruthy();
    expect(github.rateLimitRemaining).toBe(remaining);

    github.setPull('acme', 'shop', {
      ...pull,
      state: 'closed',
      merged_at: '2025-02-01T10:00:00Z',
      merged: true,
    });
    const merged = await t.api({ method: 'GET', url: `/api/pull_requests/${id}` });
    expect(merged.json().data).toMatchObject({
      status: 'merged',
      scmDetails: { merged_at: '2025-02-01T10:00:00Z' },
    });
    expect(github.requests.at(-1)).toMatchObject({ status: 200 });
    const listed = await t.api({ method: 'GET', url: '/api/pull_requests' });
    expect(listed.json().data[0].status).toBe('merged');
  });

  it('answers 404 for an untracked id and 400 for a malformed one', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths['/api/pull_requests/{id}'])).toEqual(
      expect.arrayContaining(['get', 'put', 'delete']),
    );
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/pull_requests', '/api/pull_requests/sync']),
    );

    expect((await t.api({ method: 'GET', url: '/api/pull_requests/999' })).statusCode).toBe(404);
    const bad = await t.api({ method: 'GET', url: '/api/pull_requests/abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].code).toBe('INVALID_ID');
  });

  it('answers 502 within EXTERNAL_TIMEOUT_MS when GitHub never answers', async () => {
    const id = (await create({ url: 'https://github.com/acme/shop/pull/31', title: 'Slow' })).json().data.id;
    github.hang = true;
    const started = Date.now();
    const res = await t.api({ method: 'GET', url: `/api/pull_requests/${id}` });
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toContain('1000 ms');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(6000);
  });

  it('answers 502 when the rate limit is exhausted, but still serves an unchanged PR through its 304', async () => {
    github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 41));
    const cached = (await create({ url: 'https://github.com/acme/shop/pull/41' })).json().data.id;
    const uncached = (
      await create({ url: 'https://github.com/acme/shop/pull/42', title: 'Never fetched' })
    ).json().data.id;
    github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 42));
    github.rateLimitRemaining = 0;
    const limited = await t.api({ method: 'GET', url: `/api/pull_requests/${uncached}` });
    expect(limited.statusCode).toBe(502);
    expect(limited.json().error.message).toMatch(/rate limit/i);
    expect((await t.api({ method: 'GET', url: `/api/pull_requests/${cached}` })).statusCode).toBe(200);
  });

  it('answers 502 when GitHub refuses the token or no longer has a tracked PR', async () => {
    const id = (await create({ url: 'https://github.com/acme/gone/pull/1', title: 'Gone' })).json().data.id;
    const gone = await t.api({ method: 'GET', url: `/api/pull_requests/${id}` });
    expect(gone.statusCode).toBe(502);
    github.failWith = 401;
    expect((await t.api({ method: 'GET', url: `/api/pull_requests/${id}` })).statusCode).toBe(502);
  });

  it('lists with pagination, status filter, sort and order', async () => {
    for (const [n, title] of [
      [1, 'Charlie'],
      [2, 'alpha'],
      [3, 'Bravo'],
    ] as const) {
      await create({ url: `https://github.com/acme/list/pull/${n}`, title });
    }
    const all = await t.api({ method: 'GET', url: '/api/pull_requests' });
    expect(all.json().data.map((pr: { title: string }) => pr.title)).toEqual(['Bravo', 'alpha', 'Charlie']);
    expect(all.json().pagination).toBeUndefined();
    const page = await t.api({
      method: 'GET',
      url: '/api/pull_requests?limit=2&offset=1&sort=createdAt&order=asc',
    });
    expect(page.json().data.map((pr: { title: string }) => pr.title)).toEqual(['alpha', 'Bravo']);
    expect(page.json().pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    const id = all.json().data[0].id;
    await t.api({ method: 'PUT', url: `/api/pull_requests/${id}`, payload: { status: 'closed' } });
    const closed = await t.api({ method: 'GET', url: '/api/pull_requests?status=closed' });
    expect(closed.json().data.map((pr: { id: number }) => pr.id)).toEqual([id]);
    const byTitle = await t.api({ method: 'GET', url: '/api/pull_requests?sort=title&order=asc' });
    expect(byTitle.json().data.map((pr: { title: string }) => pr.title)).toEqual([
      'Bravo',
      'Charlie',
      'alpha',
    ]);
    const byUpdated = await t.api({
      method: 'GET',
      url: '/api/pull_requests?sort=updatedAt&order=desc&limit=1',
    });
    expect(byUpdated.json().data[0].id).toBe(id);
    for (const query of ['status=nope', 'sort=url', 'order=up', 'limit=0', 'limit=101', 'offset=-1']) {
      const res = await t.api({ method: 'GET', url: `/api/pull_requests?${query}` });
      expect(res.statusCode, query).toBe(400);
    }
  });
});
