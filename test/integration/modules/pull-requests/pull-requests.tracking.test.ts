import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';
import { fakePullRequest, type FakeGitHub, startFakeGitHub } from '../../../fakes/fake-github.js';
import { pullRequestsSuite, TOKEN } from './pull-requests-support.js';

// Tracking a PR: adding it by URL or by the legacy body, changing it and untracking it.
describe.each(DIALECTS)('pull requests API: tracking (%s)', (dialect) => {
  const { suite, create } = pullRequestsSuite(dialect);
  let github: FakeGitHub;
  let t: TestApp;
  beforeAll(() => {
    ({ github, t } = suite);
  });

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
