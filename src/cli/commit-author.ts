import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { present } from './ci-environment.js';

const execFileAsync = promisify(execFile);

/**
 * The commit's author (who wrote the change, not who started the run): `git log` in the working
 * directory when it is a checkout that has the commit, else GitHub's event payload (the pushed
 * head commit's author, else the pull request's author), else undefined.
 */
export async function commitAuthor(
  commit: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<string | undefined> {
  return (commit ? await authorFromGit(commit, cwd) : undefined) ?? (await authorFromGitHubEvent(env));
}

async function authorFromGit(commit: string, cwd: string): Promise<string | undefined> {
  // A commit that looks like an option must never reach git as one.
  if (commit.startsWith('-')) return undefined;
  try {
    const { stdout } = await execFileAsync('git', ['log', '-1', '--format=%an', commit, '--'], {
      cwd,
      timeout: 10_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    return present(stdout.trim());
  } catch {
    // Not a checkout, a shallow clone without that commit, or no git at all.
    return undefined;
  }
}

interface GitHubEvent {
  head_commit?: { author?: { name?: unknown } } | null;
  pull_request?: { user?: { login?: unknown } } | null;
}

async function authorFromGitHubEvent(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const path = present(env.GITHUB_EVENT_PATH);
  if (!path) return undefined;
  let event: GitHubEvent;
  try {
    event = JSON.parse(await readFile(path, 'utf8')) as GitHubEvent;
  } catch {
    return undefined;
  }
  const name = event?.head_commit?.author?.name;
  if (typeof name === 'string' && present(name)) return name;
  const login = event?.pull_request?.user?.login;
  return typeof login === 'string' && present(login) ? login : undefined;
}
