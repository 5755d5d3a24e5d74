import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';
import type { Dialect } from '../../../support/test-database.js';

export const TOKEN = 'ghp_testtoken1234567890abcdefghij';

/**
 * The pull requests API suites' set-up on `dialect`: a fake GitHub that wants `TOKEN` and a test
 * app that calls it (1 s timeout), with GitHub's answers reset and no tracked PRs at the start of
 * each test. `suite` is filled in once both have started, so read it only inside hooks and tests.
 */
export function pullRequestsSuite(dialect: Dialect) {
  const suite = {} as { github: FakeGitHub; t: TestApp };
  beforeAll(async () => {
    suite.github = await startFakeGitHub({ token: TOKEN });
    suite.t = await createTestApp({
      dialect,
      env: { GITHUB_URL: suite.github.url, GITHUB_TOKEN: TOKEN, EXTERNAL_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await suite.t.close();
    await suite.github.close();
  });
  beforeEach(async () => {
    suite.github.hang = false;
    suite.github.failWith = undefined;
    suite.github.rateLimitRemaining = 5000;
    suite.github.requests.length = 0;
    await suite.t.database.db.deleteFrom('pull_requests').execute();
  });

  const create = (payload: Record<string, unknown>) =>
    suite.t.api({ method: 'POST', url: '/api/pull_requests', payload });
  return { suite, create };
}
