import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** What the CI's own variables say about the run; every field is optional. */
export interface RunDetails {
  run?: string;
  commit?: string;
  branch?: string;
  /** Who started the run (the CI's actor), not the commit's author. */
  triggeredBy?: string;
  url?: string;
  /** GitHub's re-run counter: "Re-run failed jobs" keeps the run number and raises this. */
  attempt?: string;
  /** Where the CI checked out the repository (report paths under it are stored relative). */
  root?: string;
  /** The repository's web page, https (the pipeline and repository URL of a new app). */
  repositoryUrl?: string;
}

export const present = (value: string | undefined) =>
  value !== undefined && value.trim() !== '' ? value : undefined;

/** What the CI's own variables say about the run (GitHub Actions, CircleCI, GitLab CI). */
export function runFromCi(env: NodeJS.ProcessEnv): RunDetails {
  if (env.GITHUB_ACTIONS === 'true') return fromGitHubActions(env);
  if (env.CIRCLECI === 'true') {
    return {
      run: present(env.CIRCLE_BUILD_NUM),
      commit: present(env.CIRCLE_SHA1),
      branch: present(env.CIRCLE_BRANCH),
      triggeredBy: present(env.CIRCLE_USERNAME),
      url: present(env.CIRCLE_BUILD_URL),
      root: present(env.CIRCLE_WORKING_DIRECTORY),
      repositoryUrl: httpsRepositoryUrl(env.CIRCLE_REPOSITORY_URL),
    };
  }
  if (env.GITLAB_CI === 'true') {
    return {
      run: present(env.CI_PIPELINE_IID),
      commit: present(env.CI_COMMIT_SHA),
      branch: present(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ?? present(env.CI_COMMIT_REF_NAME),
      triggeredBy: present(env.GITLAB_USER_LOGIN),
      url: present(env.CI_PIPELINE_URL),
      root: present(env.CI_PROJECT_DIR),
      repositoryUrl: httpsRepositoryUrl(env.CI_PROJECT_URL),
    };
  }
  return {};
}

function fromGitHubActions(env: NodeJS.ProcessEnv): RunDetails {
  const server = (present(env.GITHUB_SERVER_URL) ?? 'https://github.com').replace(/\/+$/, '');
  const repository = present(env.GITHUB_REPOSITORY);
  return {
    run: present(env.GITHUB_RUN_NUMBER),
    commit: present(env.GITHUB_SHA),
    // A pull request's own branch, else the branch or tag that was pushed.
    branch: present(env.GITHUB_HEAD_REF) ?? present(env.GITHUB_REF_NAME),
    triggeredBy: present(env.GITHUB_ACTOR),
    url:
      repository && present(env.GITHUB_RUN_ID)
        ? `${server}/${repository}/actions/runs/${env.GITHUB_RUN_ID}`
        : undefined,
    attempt: present(env.GITHUB_RUN_ATTEMPT),
    root: present(env.GITHUB_WORKSPACE),
    repositoryUrl: repository ? `${server}/${repository}` : undefined,
  };
}

/**
 * The checkout directory as an absolute path. CircleCI's default `CIRCLE_WORKING_DIRECTORY` is
 * literally `~/project` (the shell never expands it in the variable), so `~` is the home folder.
 */
export function absoluteRoot(root: string | undefined, cwd: string): string {
  if (root === undefined) return cwd;
  const expanded = root === '~' || root.startsWith('~/') ? homedir() + root.slice(1) : root;
  return resolve(cwd, expanded);
}

/**
 * The web page of a repository from the URL a CI knows it by: `git@host:owner/name.git`,
 * `ssh://git@host[:port]/owner/name.git` and `https://host/owner/name(.git)` all become
 * `https://host/owner/name`; anything else is undefined.
 */
export function httpsRepositoryUrl(url: string | undefined): string | undefined {
  const value = present(url)?.trim();
  if (value === undefined) return undefined;
  const scp = /^[\w.-]+@([\w.-]+):(?!\/)(.+?)(?:\.git)?\/?$/.exec(value);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:', 'git+ssh:'].includes(parsed.protocol)) return undefined;
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\.git$/, '');
  if (path === '') return undefined;
  const origin = parsed.protocol.startsWith('http')
    ? `${parsed.protocol}//${parsed.host}`
    : `https://${parsed.hostname}`;
  return `${origin}${path}`;
}
