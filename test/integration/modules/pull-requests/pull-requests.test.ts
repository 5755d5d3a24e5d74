import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';
import { fakePullRequest, type FakeGitHub, startFakeGitHub } from '../../../fakes/fake-github.js';

const TOKEN = 'ghp_testtoken1234567890abcdefghij';

describe.each(DIALECTS)('pull requests API (%s)', (dialect) => {
  let github: FakeGitHub;
  let t: TestApp;

  beforeAll(async () => {
    github = await startFakeGitHub({ token: TOKEN });
    t = await createTestApp({
      dialect,
      env: { GITHUB_URL: github.url, GITHUB_TOKEN: TOKEN, EXTERNAL_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await t.close();
    await github.close();
  });
  beforeEach(async () => {
    github.hang = false;
    github.failWith = undefined;
    github.rateLimitRemaining = 5000;
    github.requests.length = 0;
    await t.database.db.deleteFrom('pull_requests').execute();
  });

  const create = (payload: Record<string, unknown>) =>
    t.api({ method: 'POST', url: '/api/pull_requests', payload });

  it('tracks a PR by URL with the given title, normalising the URL, without asking GitHub', async () => {
    const res = await create({
      url: 'https://github.com/acme/shop/pull/12/files?diff=split#top',
      title: 'Fix cart',
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      url: 'https://github.com/acme/shop/pull/12',
      title: 'Fix cart',
      status: 'open',
    });
    expect(data.id).toBeTypeOf('number');
    expect(data.createdAt).toMatch(/Z$/);
    expect(github.requests).toHaveLength(0);
  });

  it('fetches the title (and status) from GitHub when none is given, with the token', async () => {
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 7, { title: 'Add search', state: 'closed' }),
    );
    const res = await create({ url: 'https://github.com/acme/shop/pull/7/' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      title: 'Add search',
      status: 'closed',
      url: 'https://github.com/acme/shop/pull/7',
    });
    expect(github.requests[0]).toMatchObject({ path: '/repos/acme/shop/pulls/7', status: 200 });
    expect(github.requests[0]!.headers.authorization).toBe(`token ${TOKEN}`);
  });

  it('accepts the legacy body {repository, pullRequestNumber}', async () => {
    const res = await create({ repository: 'acme/shop', pullRequestNumber: 3, title: 'Legacy' });
    expect(res.statusCode).toBe(201);
    // GITHUB_URL is the fake (not api.github.com), so its host is the page host of the pair.
    expect(res.json().data.url).toBe(`${new URL(github.url).origin}/acme/shop/pull/3`);
    const incomplete = await create({ repository: 'acme/shop' });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().error.details[0]).toMatchObject({
      field: 'pullRequestNumber',
      code: 'REQUIRED_FIELD',
    });
    const bad = await create({ repository: 'not a repo', pullRequestNumber: 3 });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 409 for a PR already tracked, also under another spelling of its URL', async () => {
    expect((await create({ url: 'https://github.com/acme/shop/pull/5', title: 'x' })).statusCode).toBe(201);
    const again = await create({ url: 'https://github.com/acme/shop/pull/5/?tab=files', title: 'y' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');
  });

  it.each([
    'https://gitlab.com/acme/shop/pull/5',
    'https://github.com/acme/shop/issues/5',
    'https://github.com/acme/pull/5',
    'https://github.com/acme/shop/pull/0',
    'http://github.com/acme/shop/pull/5',
    'not a url',
    'javascript:alert(1)',
  ])('refuses %s with 400 INVALID_URL', async (url) => {
    const res = await create({ url, title: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ field: 'url', code: 'INVALID_URL' });
  });

  it('needs a url (400 REQUIRED_FIELD) and a non-blank title', async () => {
    const noUrl = await create({ title: 'x' });
    expect(noUrl.json().error.details[0]).toMatchObject({ field: 'url', code: 'REQUIRED_FIELD' });
    const blank = await create({ url: 'https://github.com/a/b/pull/1', title: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.details[0]).toMatchObject({ field: 'title', code: 'EMPTY_FIELD' });
  });

  it('answers 400 INVALID_VALUE for a PR GitHub does not have, 502 when GitHub fails', async () => {
    const missing = await create({ url: 'https://github.com/acme/shop/pull/404' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0]).toMatchObject({ field: 'url', code: 'INVALID_VALUE' });
    github.failWith = 500;
    const failing = await create({ url: 'https://github.com/acme/shop/pull/9' });
    expect(failing.statusCode).toBe(502);
    expect(failing.json().error.code).toBe('EXTERNAL_SERVICE_ERROR');
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

  it('changes title and status with PUT, refuses empty or invalid bodies', async () => {
    const id = (await create({ url: 'https://github.com/acme/shop/pull/50', title: 'Old' })).json().data.id;
    const res = await t.api({
      method: 'PUT',
      url: `/api/pull_requests/${id}`,
      payload: { title: 'New', status: 'closed' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, title: 'New', status: 'closed' });
    const empty = await t.api({ method: 'PUT', url: `/api/pull_requests/${id}`, payload: { url: 'x' } });
    expect(empty.json().error.details[0].code).toBe('EMPTY_BODY');
    const bad = await t.api({ method: 'PUT', url: `/api/pull_requests/${id}`, payload: { status: 'weird' } });
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.api({ method: 'PUT', url: '/api/pull_requests/9999', payload: { title: 'x' } })).statusCode,
    ).toBe(404);
  });

  it('stops tracking with DELETE (then 404)', async () => {
    const id = (await create({ url: 'https://github.com/acme/shop/pull/60', title: 'Bye' })).json().data.id;
    const res = await t.api({ method: 'DELETE', url: `/api/pull_requests/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: expect.any(String) });
    expect((await t.api({ method: 'DELETE', url: `/api/pull_requests/${id}` })).statusCode).toBe(404);
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

describe('pull requests on GitHub Enterprise', () => {
  let github: FakeGitHub;
  let t: TestApp;

  beforeAll(async () => {
    github = await startFakeGitHub({ prefix: '/api/v3' });
    t = await createTestApp({ env: { GITHUB_URL: github.url } });
  });
  afterAll(async () => {
    await t.close();
    await github.close();
  });
  afterEach(() => void (github.requests.length = 0));

  it('accepts pages of the GITHUB_URL host and calls its /api/v3 API', async () => {
    const host = new URL(github.url).origin;
    github.setPull('corp', 'app', fakePullRequest('corp', 'app', 8, { title: 'Enterprise PR' }));
    const res = await t.api({
      method: 'POST',
      url: '/api/pull_requests',
      payload: { url: `${host}/corp/app/pull/8#x` },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ url: `${host}/corp/app/pull/8`, title: 'Enterprise PR' });
    expect(github.requests[0]!.path).toBe('/api/v3/repos/corp/app/pulls/8');
    expect(github.requests[0]!.headers.authorization).toBeUndefined();
    const legacy = await t.api({
      method: 'POST',
      url: '/api/pull_requests',
      payload: { repository: 'corp/app', pullRequestNumber: 9, title: 'x' },
    });
    expect(legacy.json().data.url).toBe(`${host}/corp/app/pull/9`);
    const other = await t.api({
      method: 'POST',
      url: '/api/pull_requests',
      payload: { url: 'https://ghe.elsewhere.com/corp/app/pull/8', title: 'x' },
    });
    expect(other.statusCode).toBe(400);
  });
});
