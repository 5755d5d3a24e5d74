import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePullRequest, type FakeGitHub, startFakeGitHub } from '../../fakes/fake-github.js';
import { DIALECTS } from '../../support/databases.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import type { Json } from '../../support/acceptance-support.js';

const GITHUB_TOKEN = 'github-acceptance-token';

// Text that comes from an external service, not from the client, must not fail a write either.
describe.each(DIALECTS)('acceptance: a NUL in GitHub text (%s)', (dialect) => {
  let github: FakeGitHub;
  let t: TestApp;
  beforeAll(async () => {
    github = await startFakeGitHub({ token: GITHUB_TOKEN });
    t = await createTestApp({ dialect, env: { GITHUB_URL: github.url, GITHUB_TOKEN } });
  });
  afterAll(async () => {
    await t.close();
    await github.close();
  });

  it('a pull request whose GitHub title holds a NUL is tracked with the title without it', async () => {
    github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 7, { title: 'Fix\u0000 checkout', mergeable_state: 'cl\u0000ean' }),
    );
    const response = await t.api({
      method: 'POST',
      url: '/api/pull_requests',
      payload: { url: 'https://github.com/acme/shop/pull/7' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Json>().data).toMatchObject({ title: 'Fix checkout' });
    const sync = await t.api({ method: 'POST', url: '/api/pull_requests/sync' });
    expect(sync.statusCode, sync.body).toBe(200);
  });
});
