import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApiRole } from '../../../src/roles/api.js';
import type { DatabaseHandle } from '../../../src/db/database.js';
import { createAppsRepository } from '../../../src/modules/apps/apps.repository.js';
import { createSuspectsModule } from '../../../src/modules/suspects/suspects.module.js';
import type { StreakAnswer, SuspectsService } from '../../../src/modules/suspects/suspects.service.js';
import { type FakeGitHub, fakeCommit, fakeCommitPull, startFakeGitHub } from '../../fakes/fake-github.js';
import { DIALECTS, openTestDatabase } from '../../support/databases.js';
import { createTestContainer } from '../../support/test-container.js';
import { TEST_KEY, testConfig } from '../../support/test-app.js';

const TOKEN = 'ghp_suspectstoken1234567890abcdefg';
const DATE = '2025-03-01';
const sha = (n: number) => n.toString(16).padStart(40, '0');

/** The streak bounds each test sets per spec; a spec not listed is not failing. */
const streaks = new Map<string, StreakAnswer>();
const lookup = async (_appId: number, _date: string, spec: string): Promise<StreakAnswer> =>
  streaks.get(spec) ?? { status: 'not_failing' };

/** An API process over `database` whose suspects take their streaks from `lookup`. */
async function startProcess(database: DatabaseHandle, env: Record<string, string>) {
  const config = testConfig(env);
  const container = createTestContainer(config, { database });
  const { db } = database;
  const suspects = createSuspectsModule(
    { config, db, broker: container.broker, log: container.log },
    { github: container.integrations.github, appsRepository: createAppsRepository(db), lookup },
  );
  const app = await buildApiRole({ ...container, suspects });
  app.addHook('onClose', async () => container.close());
  await app.ready();
  return { app, service: suspects.service };
}

describe.each(DIALECTS)('suspects over the fake GitHub (%s)', (dialect) => {
  let github: FakeGitHub;
  let database: DatabaseHandle;
  let first: { app: FastifyInstance; service: SuspectsService };
  let second: { app: FastifyInstance; service: SuspectsService };
  let appId: number;

  beforeAll(async () => {
    github = await startFakeGitHub({ token: TOKEN });
    database = await openTestDatabase(dialect);
    const env = { GITHUB_URL: github.url, GITHUB_TOKEN: TOKEN, EXTERNAL_TIMEOUT_MS: '1000' };
    first = await startProcess(database, env);
    second = await startProcess(database, env);
  });
  afterAll(async () => {
    await first.app.close();
    await second.app.close();
    await database.close();
    await github.close();
  });
  beforeEach(async () => {
    github.hang = false;
    github.failWith = undefined;
    github.requests.length = 0;
    streaks.clear();
    for (const table of ['suspect_ranges', 'pull_requests', 'apps'] as const) {
      await database.db.deleteFrom(table).execute();
    }
    github.setCommits(
      'acme',
      'shop',
      Array.from({ length: 12 }, (_, i) =>
        fakeCommit('acme', 'shop', sha(i + 1), {
          message: `Change ${i + 1}\n\nDetails`,
          authorName: `Dev ${i + 1}`,
          authorLogin: i === 3 ? null : `dev${i + 1}`,
        }),
      ),
    );
    github.setCommitPulls('acme', 'shop', sha(3), [
      fakeCommitPull('acme', 'shop', 41, { title: 'Still open', merged_at: null, state: 'open' }),
      fakeCommitPull('acme', 'shop', 42, { title: 'Fix cart', user: { login: 'alice' } }),
    ]);
    github.setCommitPulls('acme', 'shop', sha(5), [
      fakeCommitPull('acme', 'shop', 42, { title: 'Fix cart', user: { login: 'alice' } }),
    ]);
    github.setCommitPulls('acme', 'shop', sha(6), [
      fakeCommitPull('acme', 'shop', 43, { title: 'Speed up', user: { login: 'bob' } }),
    ]);
    const created = await first.app.inject({
      method: 'POST',
      url: '/api/apps',
      headers: { 'x-api-key': TEST_KEY },
      payload: {
        name: 'Shop',
        code: 'shop',
        pipelineUrl: 'https://ci.example.com/p',
        repositoryUrl: 'https://github.com/Acme/shop',
      },
    });
    appId = created.json().data.id;
  });

  const ask = (process: { app: FastifyInstance }, spec: string) =>
    process.app.inject({
      method: 'GET',
      url: `/api/apps/${appId}/suspects?spec=${encodeURIComponent(spec)}&date=${DATE}`,
      headers: { 'x-api-key': TEST_KEY },
    });
  const track = (url: string) =>
    first.app.inject({
      method: 'POST',
      url: '/api/pull_requests',
      headers: { 'x-api-key': TEST_KEY },
      payload: { url, title: 'tracked' },
    });

  it('lists the commits of the streak oldest first, each with its merged pull request and tracked id', async () => {
    await track('https://github.com/acme/other/pull/42');
    const tracked = (await track('https://github.com/acme/shop/pull/42')).json().data.id;
    streaks.set('login.cy.ts', { base: sha(2), head: sha(5) });
    const res = await ask(first, 'login.cy.ts');
    expect(res.statusCode, res.body).toBe(200);
    const page = (n: number) => `https://github.com/acme/shop/commit/${sha(n)}`;
    const fixCart = {
      number: 42,
      title: 'Fix cart',
      url: 'https://github.com/acme/shop/pull/42',
      trackedId: tracked,
    };
    expect(res.json()).toEqual({
      success: true,
      data: {
        spec: 'login.cy.ts',
        base: sha(2),
        head: sha(5),
        commits: [
          { sha: sha(3), message: 'Change 3', author: 'dev3', url: page(3), pullRequest: fixCart },
          { sha: sha(4), message: 'Change 4', author: 'Dev 4', url: page(4), pullRequest: null },
          { sha: sha(5), message: 'Change 5', author: 'dev5', url: page(5), pullRequest: fixCart },
        ],
        truncated: false,
      },
    });
    expect(github.requests.map((r) => r.path)).toEqual([
      `/repos/Acme/shop/compare/${sha(2)}...${sha(5)}`,
      ...[3, 4, 5].map((n) => `/repos/Acme/shop/commits/${sha(n)}/pulls`),
    ]);
  });

  it('answers again from the cache: no GitHub request in this process nor in another one', async () => {
    streaks.set('cart.cy.ts', { base: sha(5), head: sha(8) });
    const answer = (await ask(first, 'cart.cy.ts')).json();
    expect(github.requests).toHaveLength(4);
    expect((await ask(first, 'cart.cy.ts')).json()).toEqual(answer);
    expect((await ask(second, 'cart.cy.ts')).json()).toEqual(answer);
    expect(github.requests).toHaveLength(4);
    // A pull request tracked since is found without asking GitHub.
    const tracked = (await track('https://github.com/acme/shop/pull/43')).json().data.id;
    const again = (await ask(second, 'cart.cy.ts')).json();
    expect(again.data.commits[0].pullRequest).toMatchObject({ number: 43, trackedId: tracked });
    expect(github.requests).toHaveLength(4);
  });

  it('walks a range once when asked twice at once, and two processes store it once', async () => {
    const compares = () => github.requests.filter((request) => request.path.includes('/compare/')).length;
    streaks.set('race.cy.ts', { base: sha(8), head: sha(10) });
    const same = await Promise.all([ask(first, 'race.cy.ts'), ask(first, 'race.cy.ts')]);
    expect(same.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(same[0].body).toBe(same[1].body);
    expect(compares()).toBe(1);

    streaks.set('race2.cy.ts', { base: sha(9), head: sha(11) });
    const both = await Promise.all([ask(first, 'race2.cy.ts'), ask(second, 'race2.cy.ts')]);
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
    const stored = await database.db
      .selectFrom('suspect_ranges')
      .select(['repository', 'base_sha'])
      .execute();
    expect(stored.sort((a, b) => a.base_sha.localeCompare(b.base_sha))).toEqual([
      { repository: 'acme/shop', base_sha: sha(8) },
      { repository: 'acme/shop', base_sha: sha(9) },
    ]);
  });

  it('lists at most 250 commits and says the range holds more', async () => {
    github.setCommits(
      'acme',
      'shop',
      Array.from({ length: 302 }, (_, i) => fakeCommit('acme', 'shop', sha(i + 1))),
    );
    streaks.set('big.cy.ts', { base: sha(1), head: sha(302) });
    const { data } = (await ask(first, 'big.cy.ts')).json();
    expect(data.commits).toHaveLength(250);
    expect(data.commits.at(-1).sha).toBe(sha(302));
    expect(data.truncated).toBe(true);
  });

  it('answers 502 when GitHub fails, times out or knows no such range, and keeps no failure', async () => {
    streaks.set('a.cy.ts', { base: sha(1), head: sha(3) });
    github.failWith = 500;
    const failed = await ask(first, 'a.cy.ts');
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toMatchObject({
      code: 'EXTERNAL_SERVICE_ERROR',
      message: 'GitHub answered 500',
    });
    github.failWith = undefined;
    expect((await ask(first, 'a.cy.ts')).statusCode).toBe(200);

    streaks.set('b.cy.ts', { base: sha(3), head: sha(4) });
    github.hang = true;
    const slow = await ask(first, 'b.cy.ts');
    expect(slow.statusCode).toBe(502);
    expect(slow.json().error.message).toBe('GitHub did not answer within 1000 ms');
    github.hang = false;

    streaks.set('c.cy.ts', { base: sha(3), head: 'f'.repeat(40) });
    const unknown = await ask(first, 'c.cy.ts');
    expect(unknown.statusCode).toBe(502);
    expect(unknown.json().error.message).toContain('GitHub knows no commits');
  });

  it('gives notifications the distinct pull requests of a range within a budget, never failing', async () => {
    const input = { repositoryUrl: 'https://github.com/acme/shop', base: sha(2), head: sha(6) };
    expect(await first.service.pullRequestsWithin(input, 1000)).toEqual([
      { number: 42, title: 'Fix cart', url: 'https://github.com/acme/shop/pull/42', author: 'alice' },
      { number: 43, title: 'Speed up', url: 'https://github.com/acme/shop/pull/43', author: 'bob' },
    ]);
    const asked = github.requests.length;
    expect(await first.service.pullRequestsWithin({ ...input, repositoryUrl: null }, 1000)).toEqual([]);
    expect(await first.service.pullRequestsWithin({ ...input, base: null }, 1000)).toEqual([]);
    expect(
      await first.service.pullRequestsWithin({ ...input, repositoryUrl: 'https://github.com/acme' }, 1000),
    ).toEqual([]);
    expect(github.requests).toHaveLength(asked);

    github.failWith = 502;
    expect(await first.service.pullRequestsWithin({ ...input, base: sha(1) }, 1000)).toEqual([]);
    github.failWith = undefined;

    github.hang = true;
    const started = Date.now();
    expect(await first.service.pullRequestsWithin({ ...input, base: sha(7), head: sha(9) }, 100)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(900);
  });
});
