import { type CallOutcomes, UNTRACKED } from '../call-outcomes.js';

/** A GitHub call of the feedback client that did not succeed, after its retries. */
export class GitHubFeedbackError extends Error {
  constructor(
    message: string,
    /** GitHub's HTTP status, undefined when no answer came. */
    readonly status: number | undefined,
    /** True for 5xx, rate limits and no answer (retried); false for 401/403/404/422 (not retried). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'GitHubFeedbackError';
  }
}

export interface CommitStatusInput {
  state: 'success' | 'failure' | 'pending' | 'error';
  description: string;
  context: string;
  targetUrl: string;
}

/** The calls pull-request feedback makes: commit statuses, the pull requests of a commit, issue comments. */
export interface GitHubFeedbackClient {
  readonly hasToken: boolean;
  /** `host` of the web pages of the repositories this GitHub serves (`github.com` for api.github.com). */
  readonly webHost: string;
  createStatus(owner: string, repo: string, sha: string, status: CommitStatusInput): Promise<void>;
  /** Numbers of the open pull requests that contain the commit. */
  openPullRequestsOf(owner: string, repo: string, sha: string): Promise<number[]>;
  createComment(owner: string, repo: string, pull: number, body: string): Promise<number>;
  /** False when the comment no longer exists (deleted by someone). */
  updateComment(owner: string, repo: string, id: number, body: string): Promise<boolean>;
  /** The id of the first comment of the pull request whose body holds `marker`. */
  findComment(owner: string, repo: string, pull: number, marker: string): Promise<number | null>;
}

export interface GitHubFeedbackOptions {
  apiUrl: string;
  token: string | undefined;
  timeoutMs: number;
  /** Waits before each retry of a retryable failure (1, 4 and 16 s by default). */
  retryDelaysMs: readonly number[];
  outcomes?: CallOutcomes;
  sleep?: (ms: number) => Promise<void>;
}

const MAX_COMMENT_PAGES = 10;

/** `api.github.com` serves `github.com`; an Enterprise `/api/v3` base serves its own host. */
export function webHostOf(apiUrl: string): string {
  const host = new URL(apiUrl).host.toLowerCase();
  return host.startsWith('api.') ? host.slice(4) : host;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isRateLimited(response: Response): boolean {
  if (response.status === 429) return true;
  return response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0';
}

export function createGitHubFeedbackClient(options: GitHubFeedbackOptions): GitHubFeedbackClient {
  const base = options.apiUrl.replace(/\/+$/, '');
  const outcomes = options.outcomes ?? UNTRACKED;
  const sleep = options.sleep ?? wait;

  async function once(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'user-agent': 'e2e-dashboard-service',
      'x-github-api-version': '2022-11-28',
    };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new GitHubFeedbackError(
        timedOut ? `GitHub did not answer within ${options.timeoutMs} ms` : 'GitHub could not be reached',
        undefined,
        true,
      );
    }
  }

  /** One call with its retries; the statuses of `answers` are handed back, any other failure thrown. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    answers: readonly number[] = [],
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let failure: GitHubFeedbackError;
      try {
        const response = await once(method, path, body);
        if (response.ok || answers.includes(response.status)) {
          outcomes.succeeded();
          return response;
        }
        await response.body?.cancel();
        const limited = isRateLimited(response);
        const retryable = limited || response.status >= 500;
        failure = new GitHubFeedbackError(
          limited
            ? `GitHub rate limit exhausted (${method} ${path.split('?')[0]})`
            : `GitHub answered ${response.status} to ${method} ${path.split('?')[0]}`,
          response.status,
          retryable,
        );
      } catch (error) {
        if (!(error instanceof GitHubFeedbackError)) throw error;
        failure = error;
      }
      const delay = options.retryDelaysMs[attempt];
      if (!failure.retryable || delay === undefined) {
        outcomes.failed(failure);
        throw failure;
      }
      await sleep(delay);
    }
  }

  const repoPath = (owner: string, repo: string) =>
    `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

  return {
    hasToken: Boolean(options.token),
    webHost: webHostOf(base),

    async createStatus(owner, repo, sha, status) {
      await call('POST', `${repoPath(owner, repo)}/statuses/${encodeURIComponent(sha)}`, {
        state: status.state,
        description: status.description,
        context: status.context,
        target_url: status.targetUrl,
      });
    },

    async openPullRequestsOf(owner, repo, sha) {
      const response = await call(
        'GET',
        `${repoPath(owner, repo)}/commits/${encodeURIComponent(sha)}/pulls`,
        undefined,
        [404, 422],
      );
      // GitHub answers 404 or 422 for a commit it does not have: no pull request holds it.
      if (!response.ok) {
        await response.body?.cancel();
        return [];
      }
      const pulls = await response.json();
      if (!Array.isArray(pulls)) return [];
      return pulls
        .filter(
          (pull: { state?: unknown; number?: unknown }) =>
            pull.state === 'open' && Number.isInteger(pull.number),
        )
        .map((pull: { number: number }) => pull.number);
    },

    async createComment(owner, repo, pull, body) {
      const response = await call('POST', `${repoPath(owner, repo)}/issues/${pull}/comments`, { body });
      const created = (await response.json()) as { id?: unknown };
      if (typeof created.id !== 'number')
        throw new GitHubFeedbackError('GitHub answered without a comment id', 201, false);
      return created.id;
    },

    async updateComment(owner, repo, id, body) {
      const response = await call('PATCH', `${repoPath(owner, repo)}/issues/comments/${id}`, { body }, [404]);
      if (response.status === 404) {
        await response.body?.cancel();
        return false;
      }
      await response.body?.cancel();
      return true;
    },

    async findComment(owner, repo, pull, marker) {
      for (let page = 1; page <= MAX_COMMENT_PAGES; page++) {
        const response = await call(
          'GET',
          `${repoPath(owner, repo)}/issues/${pull}/comments?per_page=100&page=${page}`,
        );
        const comments = await response.json();
        if (!Array.isArray(comments)) return null;
        const found = comments.find(
          (comment: { body?: unknown; id?: unknown }) =>
            typeof comment.body === 'string' &&
            comment.body.includes(marker) &&
            typeof comment.id === 'number',
        ) as { id: number } | undefined;
        if (found) return found.id;
        if (comments.length < 100) return null;
      }
      return null;
    },
  };
}
