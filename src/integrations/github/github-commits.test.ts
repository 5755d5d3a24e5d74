import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeGitHub,
  fakeCommit,
  fakeCommitPull,
  startFakeGitHub,
} from '../../../test/fakes/fake-github.js';
import { ExternalServiceError } from '../../shared/errors.js';
import { createGitHubClient, type GitHubClient } from './github-client.js';
import { parseRepositoryUrl } from './repository-url.js';

const TOKEN = 'ghp_commitstoken1234567890abcdefgh';
const silent = { debug: () => undefined, warn: () => undefined };
const sha = (n: number) => n.toString(16).padStart(40, '0');

describe('GitHub commits (against the fake GitHub over HTTP)', () => {
  let github: FakeGitHub;
  let client: GitHubClient;

  beforeAll(async () => {
    github = await startFakeGitHub({ token: TOKEN, prefix: '/api/v3' });
    client = createGitHubClient(
      { github: { apiUrl: github.url, token: TOKEN }, externalTimeoutMs: 300 },
      silent,
    );
    // Octokit loads on the first request; on a busy machine that alone can outlast the 300 ms the
    // tests give GitHub to answer, so it is loaded before them.
    await client.listPullRequestsOfCommit('acme', 'shop', sha(1)).catch(() => undefined);
  });
  afterAll(async () => github.close());
  beforeEach(() => {
    github.hang = false;
    github.failWith = undefined;
    github.requests.length = 0;
    github.setCommits(
      'acme',
      'shop',
      Array.from({ length: 6 }, (_, i) =>
        fakeCommit('acme', 'shop', sha(i + 1), {
          message: `Commit ${i + 1}\n\nLonger body`,
          authorName: `Dev ${i + 1}`,
          authorLogin: i % 2 === 0 ? `dev${i + 1}` : null,
        }),
      ),
    );
  });

  it('lists the commits after base up to head, oldest first, with subject, author and page', async () => {
    const comparison = await client.compareCommits('acme', 'shop', sha(2), sha(5));
    expect(comparison.totalCommits).toBe(3);
    expect(comparison.commits).toEqual([
      {
        sha: sha(3),
        message: 'Commit 3',
        author: 'dev3',
        url: `https://github.com/acme/shop/commit/${sha(3)}`,
      },
      {
        sha: sha(4),
        message: 'Commit 4',
        author: 'Dev 4',
        url: `https://github.com/acme/shop/commit/${sha(4)}`,
      },
      {
        sha: sha(5),
        message: 'Commit 5',
        author: 'dev5',
        url: `https://github.com/acme/shop/commit/${sha(5)}`,
      },
    ]);
    expect(github.requests[0]).toMatchObject({
      path: `/api/v3/repos/acme/shop/compare/${sha(2)}...${sha(5)}`,
      status: 200,
    });
    expect(github.requests[0]!.headers.authorization).toBe(`token ${TOKEN}`);
  });

  it('says how many commits the range holds when GitHub lists only 250', async () => {
    const history = Array.from({ length: 302 }, (_, i) => fakeCommit('acme', 'big', sha(i + 1)));
    github.setCommits('acme', 'big', history);
    const comparison = await client.compareCommits('acme', 'big', sha(1), sha(302));
    expect(comparison.commits).toHaveLength(250);
    expect(comparison.totalCommits).toBe(301);
    expect(comparison.commits.at(-1)!.sha).toBe(sha(302));
  });

  it('turns an unknown range, a GitHub error and a timeout into 502 errors naming the cause', async () => {
    await expect(client.compareCommits('acme', 'shop', sha(99), sha(5))).rejects.toMatchObject({
      statusCode: 502,
      message: `GitHub knows no commits ${sha(99)}...${sha(5)} in acme/shop`,
    });
    github.failWith = 500;
    await expect(client.compareCommits('acme', 'shop', sha(1), sha(2))).rejects.toMatchObject({
      statusCode: 502,
      message: 'GitHub answered 500',
    });
    await expect(client.listPullRequestsOfCommit('acme', 'shop', sha(1))).rejects.toBeInstanceOf(
      ExternalServiceError,
    );
    github.failWith = undefined;
    github.hang = true;
    await expect(client.compareCommits('acme', 'shop', sha(1), sha(2))).rejects.toMatchObject({
      statusCode: 502,
      message: 'GitHub did not answer within 300 ms',
    });
    await expect(client.listPullRequestsOfCommit('acme', 'shop', sha(1))).rejects.toMatchObject({
      message: 'GitHub did not answer within 300 ms',
    });
  });

  it('reads the pull requests of a commit; a commit GitHub does not know has none', async () => {
    github.setCommitPulls('acme', 'shop', sha(3), [
      fakeCommitPull('acme', 'shop', 41, { title: 'Open one', merged_at: null, state: 'open' }),
      fakeCommitPull('acme', 'shop', 42, { title: 'Fix cart', user: { login: 'alice' } }),
    ]);
    expect(await client.listPullRequestsOfCommit('acme', 'shop', sha(3))).toEqual([
      {
        number: 41,
        title: 'Open one',
        url: 'https://github.com/acme/shop/pull/41',
        author: 'octocat',
        mergedAt: null,
      },
      {
        number: 42,
        title: 'Fix cart',
        url: 'https://github.com/acme/shop/pull/42',
        author: 'alice',
        mergedAt: '2025-02-28T08:00:00Z',
      },
    ]);
    expect(await client.listPullRequestsOfCommit('acme', 'shop', sha(4))).toEqual([]);
    expect(await client.listPullRequestsOfCommit('acme', 'shop', sha(77))).toEqual([]);
    expect(github.requests.map((r) => r.status)).toEqual([200, 200, 422]);
  });
});

describe('repository URLs', () => {
  it.each([
    ['https://github.com/acme/shop', { owner: 'acme', repo: 'shop' }],
    ['https://github.com/acme/shop/', { owner: 'acme', repo: 'shop' }],
    ['https://github.com/acme/shop.git', { owner: 'acme', repo: 'shop' }],
    ['http://ghe.example.com/corp/my.repo_1', { owner: 'corp', repo: 'my.repo_1' }],
    [' https://github.com/acme/shop?tab=readme ', { owner: 'acme', repo: 'shop' }],
  ])('reads %s', (url, expected) => {
    expect(parseRepositoryUrl(url)).toEqual(expected);
  });

  it.each([
    'https://github.com/acme',
    'https://github.com/',
    'https://github.com/acme/shop/tree/main',
    'ftp://github.com/acme/shop',
    'not a url',
    'https://github.com/acme/sh%20op',
    'https://github.com/acme/..',
  ])('refuses %s', (url) => {
    expect(parseRepositoryUrl(url)).toBeUndefined();
  });
});
