import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { absoluteRoot, httpsRepositoryUrl, runFromCi } from './ci-environment.js';

describe('the CI environment', () => {
  it('turns the URLs a CI knows a repository by into its https page', () => {
    const cases: [string | undefined, string | undefined][] = [
      ['git@github.com:acme/shop.git', 'https://github.com/acme/shop'],
      ['git@bitbucket.org:acme/shop', 'https://bitbucket.org/acme/shop'],
      ['ssh://git@gitlab.example.com:2222/group/sub/shop.git', 'https://gitlab.example.com/group/sub/shop'],
      ['https://github.com/acme/shop.git', 'https://github.com/acme/shop'],
      ['https://gitlab.com/acme/shop/', 'https://gitlab.com/acme/shop'],
      // A token in the URL never reaches the app's record.
      ['https://x-access-token:secret@github.com/acme/shop.git', 'https://github.com/acme/shop'],
      ['https://github.com', undefined],
      ['file:///srv/git/shop.git', undefined],
      ['not a url', undefined],
      ['', undefined],
      [undefined, undefined],
    ];
    for (const [input, expected] of cases)
      expect([input, httpsRepositoryUrl(input)]).toEqual([input, expected]);
  });

  it("makes the checkout root absolute, with CircleCI's ~ as the home folder", () => {
    expect(absoluteRoot('~/project', '/work')).toBe(`${homedir()}/project`);
    expect(absoluteRoot('~', '/work')).toBe(homedir());
    expect(absoluteRoot('/builds/acme/shop/', '/work')).toBe('/builds/acme/shop');
    expect(absoluteRoot('sub/dir', '/work')).toBe('/work/sub/dir');
    expect(absoluteRoot(undefined, '/work')).toBe('/work');
  });

  it("reads GitHub Actions' attempt, workspace and repository page (a GitHub Enterprise server too)", () => {
    expect(
      runFromCi({
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_NUMBER: '9',
        GITHUB_RUN_ATTEMPT: '3',
        GITHUB_RUN_ID: '77',
        GITHUB_HEAD_REF: 'feature/x',
        GITHUB_REF_NAME: '12/merge',
        GITHUB_ACTOR: 'octocat',
        GITHUB_REPOSITORY: 'acme/shop',
        GITHUB_SERVER_URL: 'https://github.acme.example/',
        GITHUB_WORKSPACE: '/runner/shop',
      }),
    ).toEqual({
      run: '9',
      attempt: '3',
      branch: 'feature/x',
      triggeredBy: 'octocat',
      url: 'https://github.acme.example/acme/shop/actions/runs/77',
      root: '/runner/shop',
      repositoryUrl: 'https://github.acme.example/acme/shop',
    });
  });
});
