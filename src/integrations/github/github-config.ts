import type { Config } from '../../config/config.js';
import { isPublicGitHub, webBaseOf } from './pull-request-url.js';

/**
 * GitHub needs no variable to work: `GITHUB_URL` defaults to the public API, and without
 * `GITHUB_TOKEN` requests are anonymous (public repositories only, 60 requests an hour).
 * Returns the one-line boot message that says which of these applies.
 */
export function describeGitHubConfig(config: Pick<Config, 'github'>): { warning?: string; summary: string } {
  const host = isPublicGitHub(config.github.apiUrl)
    ? 'github.com'
    : `GitHub Enterprise at ${webBaseOf(config.github.apiUrl)}`;
  if (!config.github.token) {
    return {
      summary: `pull requests: ${host}, anonymous`,
      warning: `GITHUB_TOKEN is not set: pull requests are read from ${host} anonymously (public repositories only, low rate limit)`,
    };
  }
  return { summary: `pull requests: ${host}, with a token` };
}
