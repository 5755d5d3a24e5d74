import { describe, expect, it } from 'vitest';
import { describeGitHubConfig } from './github-config.js';
import { parsePullRequestUrl, pullRequestUrlFromParts, webBaseOf } from './pull-request-url.js';

const PUBLIC = 'https://api.github.com';
const GHE = 'https://ghe.example.com/api/v3';

describe('pull-request URLs', () => {
  it.each([
    ['https://github.com/acme/shop/pull/12', 'https://github.com/acme/shop/pull/12'],
    ['https://github.com/acme/shop/pull/12/', 'https://github.com/acme/shop/pull/12'],
    ['https://github.com/acme/shop/pull/12/files', 'https://github.com/acme/shop/pull/12'],
    ['https://GitHub.com/acme/shop/pull/12?w=1#diff', 'https://github.com/acme/shop/pull/12'],
    ['  https://github.com/my-org/my.repo_1/pull/7  ', 'https://github.com/my-org/my.repo_1/pull/7'],
  ])('normalises %s', (raw, url) => {
    expect(parsePullRequestUrl(raw, PUBLIC)?.url).toBe(url);
  });

  it('refuses other hosts, paths and user-info', () => {
    for (const raw of [
      'https://ghe.example.com/acme/shop/pull/1',
      'https://github.com/acme/shop/pulls/1',
      'https://github.com/acme/shop/pull/1/extra',
      'https://user:pass@github.com/acme/shop/pull/1',
      'https://github.com/acme/shop/pull/99999999999',
      'ftp://github.com/acme/shop/pull/1',
    ]) {
      expect(parsePullRequestUrl(raw, PUBLIC), raw).toBeUndefined();
    }
  });

  it('accepts the Enterprise host (and github.com) when GITHUB_URL names one', () => {
    expect(webBaseOf(GHE)).toBe('https://ghe.example.com');
    expect(parsePullRequestUrl('https://ghe.example.com/corp/app/pull/3', GHE)).toEqual({
      owner: 'corp',
      repo: 'app',
      number: 3,
      url: 'https://ghe.example.com/corp/app/pull/3',
    });
    expect(parsePullRequestUrl('https://github.com/acme/shop/pull/1', GHE)).toBeDefined();
    expect(parsePullRequestUrl('http://ghe.example.com/corp/app/pull/3', GHE)).toBeUndefined();
  });

  it('builds the URL of the compatibility pair', () => {
    expect(pullRequestUrlFromParts('acme/shop', 4, PUBLIC)).toBe('https://github.com/acme/shop/pull/4');
    expect(pullRequestUrlFromParts('corp/app', 4, GHE)).toBe('https://ghe.example.com/corp/app/pull/4');
    expect(pullRequestUrlFromParts('acme', 4, PUBLIC)).toBeUndefined();
    expect(pullRequestUrlFromParts('acme/shop/x', 4, PUBLIC)).toBeUndefined();
  });
});

describe('GitHub configuration', () => {
  it('warns when there is no token, and names the host', () => {
    expect(describeGitHubConfig({ github: { apiUrl: PUBLIC } }).warning).toContain('GITHUB_TOKEN is not set');
    const enterprise = describeGitHubConfig({ github: { apiUrl: GHE, token: 't' } });
    expect(enterprise.warning).toBeUndefined();
    expect(enterprise.summary).toContain('https://ghe.example.com');
  });
});
