import type { Octokit } from '@octokit/rest';
import type { Config } from '../../config/config.js';
import { ExternalServiceError } from '../../shared/errors.js';
import type { Log } from '../../shared/log.js';
import { type CallOutcomes, UNTRACKED } from '../call-outcomes.js';
import {
  type CommitPullRequest,
  type Comparison,
  toCommitPullRequests,
  toComparison,
} from './github-commits.js';

/**
 * The pull-request fields the service exposes as `scmDetails` (spec field list). Only the title
 * is required of GitHub's answer; a field it leaves out (or sends with another type) is null,
 * except `body` and the user's names (empty strings) and `mergeable` (false, as while GitHub is
 * still computing it).
 */
export interface ScmDetails {
  number: number;
  state: string | null;
  title: string;
  body: string;
  user: { login: string; avatar_url: string };
  created_at: string | null;
  updated_at: string | null;
  merged_at: string | null;
  draft: boolean | null;
  head: { ref: string; sha: string } | null;
  base: { ref: string; sha: string } | null;
  mergeable: boolean;
  mergeable_state: string | null;
  comments: number | null;
  review_comments: number | null;
  commits: number | null;
  additions: number | null;
  deletions: number | null;
  changed_files: number | null;
}

export type PullRequestFetch =
  { notModified: true } | { notModified: false; details: ScmDetails; etag: string | null };

/** GitHub answered 404: the repository or pull request does not exist (or the token cannot see it). */
export class GitHubNotFoundError extends Error {
  constructor(
    readonly owner: string,
    readonly repo: string,
    readonly number: number,
  ) {
    super(`GitHub has no pull request ${owner}/${repo}#${number}`);
    this.name = 'GitHubNotFoundError';
  }
}

export interface GitHubClient {
  /** `GET /repos/{owner}/{repo}/pulls/{n}`; with an ETag it is a conditional request (a 304 is free). */
  getPullRequest(
    owner: string,
    repo: string,
    number: number,
    etag?: string | null,
  ): Promise<PullRequestFetch>;
  /**
   * `GET /repos/{owner}/{repo}/compare/{base}...{head}` without paging parameters: GitHub then
   * lists at most 250 commits, oldest first. A range GitHub does not know is a 502 naming it.
   */
  compareCommits(owner: string, repo: string, base: string, head: string): Promise<Comparison>;
  /** `GET /repos/{owner}/{repo}/commits/{sha}/pulls` (first page); none for a commit GitHub does not know. */
  listPullRequestsOfCommit(owner: string, repo: string, sha: string): Promise<CommitPullRequest[]>;
}

/**
 * `merged` when GitHub reports a merge time, otherwise GitHub's `open`/`closed`; undefined when
 * the answer says neither (the caller keeps what it knew).
 */
export function pullRequestStatus(
  details: Pick<ScmDetails, 'state' | 'merged_at'>,
): 'open' | 'closed' | 'merged' | undefined {
  if (details.merged_at) return 'merged';
  if (details.state === 'closed') return 'closed';
  return details.state === 'open' ? 'open' : undefined;
}

/** Octokit's HttpError, recognised by shape so that a second copy of the package cannot fool `instanceof`. */
interface HttpError {
  name: 'HttpError';
  status: number;
  message: string;
  response?: { headers: Record<string, string | undefined> };
}

function isHttpError(error: unknown): error is HttpError {
  return (
    error instanceof Error &&
    error.name === 'HttpError' &&
    typeof (error as { status?: unknown }).status === 'number'
  );
}

// PostgreSQL text cannot hold NUL: a title carrying one would fail the insert there (500) while
// SQLite stored it, so GitHub's strings arrive without it on both dialects.
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value.replaceAll('\u0000', '') : null;
const count = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

function ref(value: unknown): { ref: string; sha: string } | null {
  const { ref: name, sha } = record(value);
  return typeof name === 'string' && typeof sha === 'string' ? { ref: name, sha } : null;
}

/**
 * Reads GitHub's answer field by field: an answer without `head`, `base` or the counts (a proxy
 * trimming it, an older Enterprise version) still gives the detail view and the title.
 */
function toScmDetails(raw: unknown, requested: number): ScmDetails {
  const pull = record(raw);
  const title = text(pull.title);
  if (title === null)
    throw new ExternalServiceError('GitHub', 'GitHub answered without a pull-request title');
  const user = record(pull.user);
  return {
    number: count(pull.number) ?? requested,
    state: text(pull.state),
    title,
    body: text(pull.body) ?? '',
    user: { login: text(user.login) ?? '', avatar_url: text(user.avatar_url) ?? '' },
    created_at: text(pull.created_at),
    updated_at: text(pull.updated_at),
    merged_at: text(pull.merged_at),
    draft: flag(pull.draft),
    head: ref(pull.head),
    base: ref(pull.base),
    // GitHub answers null while it is still computing mergeability; the spec's field is a boolean.
    mergeable: flag(pull.mergeable) ?? false,
    mergeable_state: text(pull.mergeable_state),
    comments: count(pull.comments),
    review_comments: count(pull.review_comments),
    commits: count(pull.commits),
    additions: count(pull.additions),
    deletions: count(pull.deletions),
    changed_files: count(pull.changed_files),
  };
}

/** Turns any failure into a 502 whose message names the cause but never a credential. */
function toServiceError(error: unknown, timeoutMs: number): Error {
  if (error instanceof ExternalServiceError) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new ExternalServiceError('GitHub', `GitHub did not answer within ${timeoutMs} ms`);
  }
  if (isHttpError(error)) {
    const headers = error.response?.headers ?? {};
    if ((error.status === 403 || error.status === 429) && headers['x-ratelimit-remaining'] === '0') {
      const reset = Number(headers['x-ratelimit-reset']);
      const when =
        Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
      return new ExternalServiceError('GitHub', `GitHub rate limit exhausted${when}`);
    }
    if (error.status === 401)
      return new ExternalServiceError('GitHub', 'GitHub rejected the configured token');
    if (error.status === 500 && error.response === undefined) {
      // No HTTP answer at all (DNS, refused connection, reset): Octokit reports it as status 500.
      if (/timeout|aborted/i.test(error.message)) {
        return new ExternalServiceError('GitHub', `GitHub did not answer within ${timeoutMs} ms`);
      }
      return new ExternalServiceError('GitHub', 'GitHub could not be reached');
    }
    return new ExternalServiceError('GitHub', `GitHub answered ${error.status}`);
  }
  return new ExternalServiceError('GitHub', 'GitHub request failed');
}

/**
 * Octokit against `GITHUB_URL` (github.com or an Enterprise `/api/v3` base). Without
 * `GITHUB_TOKEN` requests go out unauthenticated: public repositories still work, within
 * GitHub's much smaller anonymous rate limit.
 */
export function createGitHubClient(
  config: Pick<Config, 'github' | 'externalTimeoutMs'>,
  log: Pick<Log, 'debug' | 'warn'>,
  outcomes: CallOutcomes = UNTRACKED,
): GitHubClient {
  const timeoutMs = config.externalTimeoutMs;
  // Octokit (several MiB once loaded) is imported on the first call: a process that never reads a
  // pull request, or runs without the API role, does not pay for it.
  let octokit: Promise<Octokit> | undefined;
  const connect = async (): Promise<Octokit> => {
    const { Octokit } = await import('@octokit/rest');
    return new Octokit(octokitOptions);
  };
  const octokitOptions: ConstructorParameters<typeof Octokit>[0] = {
    baseUrl: config.github.apiUrl.replace(/\/+$/, ''),
    ...(config.github.token ? { auth: config.github.token } : {}),
    userAgent: 'e2e-dashboard-service',
    // Octokit's debug log receives the full request options, authorization header included:
    // only the one-line summaries (method, path, status) are passed on.
    log: {
      debug: () => undefined,
      info: (message: string) => log.debug(`github: ${message}`),
      warn: (message: string) => log.warn(`github: ${message}`),
      error: (message: string) => log.debug(`github: ${message}`),
    },
  };

  const failed = (error: unknown): Error => {
    const failure = toServiceError(error, timeoutMs);
    outcomes.failed(failure);
    return failure;
  };

  return {
    async compareCommits(owner, repo, base, head) {
      try {
        octokit ??= connect();
        const response = await (
          await octokit
        ).rest.repos.compareCommits({
          owner,
          repo,
          base,
          head,
          request: { signal: AbortSignal.timeout(timeoutMs) },
        });
        const comparison = toComparison(response.data);
        outcomes.succeeded();
        return comparison;
      } catch (error) {
        if (isHttpError(error) && error.status === 404) {
          outcomes.succeeded();
          throw new ExternalServiceError(
            'GitHub',
            `GitHub knows no commits ${base}...${head} in ${owner}/${repo}`,
          );
        }
        throw failed(error);
      }
    },

    async listPullRequestsOfCommit(owner, repo, sha) {
      try {
        octokit ??= connect();
        const response = await (
          await octokit
        ).rest.repos.listPullRequestsAssociatedWithCommit({
          owner,
          repo,
          commit_sha: sha,
          request: { signal: AbortSignal.timeout(timeoutMs) },
        });
        const pulls = toCommitPullRequests(response.data);
        outcomes.succeeded();
        return pulls;
      } catch (error) {
        // GitHub answers 404 or 422 for a commit it does not have: no pull request contains it.
        if (isHttpError(error) && (error.status === 404 || error.status === 422)) {
          outcomes.succeeded();
          return [];
        }
        throw failed(error);
      }
    },

    async getPullRequest(owner, repo, number, etag) {
      try {
        octokit ??= connect();
        const response = await (
          await octokit
        ).rest.pulls.get({
          owner,
          repo,
          pull_number: number,
          headers: etag ? { 'if-none-match': etag } : {},
          request: { signal: AbortSignal.timeout(timeoutMs) },
        });
        const details = toScmDetails(response.data, number);
        outcomes.succeeded();
        return { notModified: false, details, etag: response.headers.etag ?? null };
      } catch (error) {
        // A 304 or a 404 is GitHub answering as it should: the integration works.
        if (isHttpError(error) && error.status === 304) {
          outcomes.succeeded();
          return { notModified: true };
        }
        if (isHttpError(error) && error.status === 404) {
          outcomes.succeeded();
          throw new GitHubNotFoundError(owner, repo, number);
        }
        const failure = toServiceError(error, timeoutMs);
        outcomes.failed(failure);
        throw failure;
      }
    },
  };
}
