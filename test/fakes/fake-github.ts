import { createHash } from 'node:crypto';
import { type FakeFaults, listenOnLoopback, noFaults } from './fake-http.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createFakeCommitStore } from './fake-github-commits.js';
import {
  createFakeFeedbackStore,
  type RecordedComment,
  type RecordedStatus,
} from './fake-github-feedback.js';

export { fakeCommit, fakeCommitPull } from './fake-github-commits.js';

/**
 * A GitHub REST server for tests, speaking the real protocol over HTTP on 127.0.0.1: the
 * `/repos/{owner}/{repo}/pulls/{n}` path, the commit comparison and the pull requests of a
 * commit (fake-github-commits.ts), also under an Enterprise `/api/v3` prefix, token
 * authentication, strong ETags with `If-None-Match` → 304 (which, as on GitHub, costs no rate
 * limit), `x-ratelimit-*` headers with a 403 once exhausted, and GitHub's JSON error bodies.
 */
export interface FakeGitHubOptions {
  /** When set, requests must carry `Authorization: token <t>` or `Bearer <t>`, else 401. */
  token?: string;
  /** Path prefix of the API, `/api/v3` for a GitHub Enterprise base URL. */
  prefix?: string;
  rateLimit?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  status: number;
}

export interface FakeGitHub extends FakeFaults {
  /** Base URL to use as `GITHUB_URL`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  setPull(owner: string, repo: string, pull: Record<string, unknown>): void;
  removePull(owner: string, repo: string, number: number): void;
  /** A repository's linear history, oldest first (commits from `fakeCommit`). */
  setCommits(owner: string, repo: string, commits: Record<string, unknown>[]): void;
  /** The pull requests containing a commit (from `fakeCommitPull`). */
  setCommitPulls(owner: string, repo: string, sha: string, pulls: Record<string, unknown>[]): void;
  rateLimitRemaining: number;
  /** Commit statuses posted, oldest first. */
  readonly statuses: RecordedStatus[];
  /** Issue comments, with every body each had (created, then edited). */
  readonly comments: RecordedComment[];
  deleteComment(id: number): void;
  close(): Promise<void>;
}

/** A complete pull-request payload as GitHub returns it; `overrides` replace any field. */
export function fakePullRequest(
  owner: string,
  repo: string,
  number: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const created = '2025-01-10T08:00:00Z';
  return {
    url: `https://api.github.com/repos/${owner}/${repo}/pulls/${number}`,
    id: 1000 + number,
    node_id: `PR_${number}`,
    html_url: `https://github.com/${owner}/${repo}/pull/${number}`,
    number,
    state: 'open',
    locked: false,
    title: `Pull request ${number}`,
    user: {
      login: 'octocat',
      id: 1,
      avatar_url: 'https://avatars.githubusercontent.com/u/1?v=4',
      type: 'User',
    },
    body: 'Describes the change.',
    labels: [],
    created_at: created,
    updated_at: created,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    draft: false,
    head: { label: `${owner}:feature`, ref: 'feature', sha: 'a'.repeat(40) },
    base: { label: `${owner}:main`, ref: 'main', sha: 'b'.repeat(40) },
    author_association: 'MEMBER',
    merged: false,
    mergeable: true,
    rebaseable: true,
    mergeable_state: 'clean',
    merged_by: null,
    comments: 1,
    review_comments: 2,
    maintainer_can_modify: false,
    commits: 3,
    additions: 40,
    deletions: 5,
    changed_files: 4,
    ...overrides,
  };
}

/**
 * A pull-request payload with some fields left out, as a trimmed answer (a proxy, an older
 * GitHub Enterprise) may come: `missing` names top-level fields (`head`, `commits`, …) or one
 * level down (`user.login`).
 */
export function partialPullRequest(
  owner: string,
  repo: string,
  number: number,
  missing: readonly string[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const pull = structuredClone(fakePullRequest(owner, repo, number, overrides));
  for (const path of missing) {
    const [first, second] = path.split('.') as [string, string | undefined];
    const parent = pull[first];
    if (second === undefined) delete pull[first];
    else if (typeof parent === 'object' && parent !== null)
      delete (parent as Record<string, unknown>)[second];
  }
  return pull;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

const DOCS = 'https://docs.github.com/rest';

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const prefix = options.prefix ?? '';
  const limit = options.rateLimit ?? 5000;
  const pulls = new Map<string, Record<string, unknown>>();
  const commits = createFakeCommitStore();
  const feedback = createFakeFeedbackStore();
  const requests: RecordedRequest[] = [];
  const resetAt = Math.floor(Date.now() / 1000) + 3600;

  const state = {
    ...noFaults(),
    rateLimitRemaining: limit,
  };

  const rateHeaders = () => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, state.rateLimitRemaining)),
    'x-ratelimit-reset': String(resetAt),
    'x-ratelimit-resource': 'core',
    'x-github-request-id': `FAKE:${requests.length}`,
  });

  // The commit routes share the pull route's faults and rate limit (no ETags: never asked twice).
  const answerCommitRoute = (res: ServerResponse, status: number, body: unknown): number => {
    if (state.failWith !== undefined) {
      const failure = { message: 'Server Error', documentation_url: DOCS, status: String(state.failWith) };
      sendJson(res, state.failWith, failure, rateHeaders());
      return state.failWith;
    }
    if (state.rateLimitRemaining <= 0) {
      const limited = {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: DOCS,
        status: '403',
      };
      sendJson(res, 403, limited, rateHeaders());
      return 403;
    }
    state.rateLimitRemaining -= 1;
    sendJson(res, status, body, rateHeaders());
    return status;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): number | undefined => {
    if (state.hang) return undefined;
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (!req.headers['user-agent']) {
      sendJson(res, 403, {
        message:
          'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
      });
      return 403;
    }
    if (options.token !== undefined) {
      const auth = req.headers.authorization ?? '';
      if (auth !== `token ${options.token}` && auth !== `Bearer ${options.token}`) {
        sendJson(res, 401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
        return 401;
      }
    }
    if (!path.startsWith(`${prefix}/`)) {
      sendJson(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
      return 404;
    }
    const feedbackPath = path.slice(prefix.length);
    if (feedback.handles(req.method ?? 'GET', feedbackPath)) {
      // Faults and the rate limit answer first: a refused write is not recorded.
      if (state.failWith !== undefined || state.rateLimitRemaining <= 0)
        return answerCommitRoute(res, 500, {});
      const query = new URL(req.url ?? '/', 'http://fake').searchParams;
      const written = feedback.answer(req.method ?? 'GET', feedbackPath, query, raw)!;
      return answerCommitRoute(res, written.status, written.body);
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path.slice(prefix.length));
    if (req.method === 'GET' && !match) {
      const url = new URL(req.url ?? '/', 'http://fake');
      const answer = commits.answer(path.slice(prefix.length), url.searchParams);
      if (answer) return answerCommitRoute(res, answer.status, answer.body);
    }
    if (req.method !== 'GET' || !match) {
      sendJson(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
      return 404;
    }
    if (state.failWith !== undefined) {
      sendJson(
        res,
        state.failWith,
        { message: 'Server Error', documentation_url: DOCS, status: String(state.failWith) },
        rateHeaders(),
      );
      return state.failWith;
    }
    const pull = pulls.get(`${match[1]}/${match[2]}/${Number(match[3])}`);
    const etag = pull
      ? `"${createHash('sha256').update(JSON.stringify(pull)).digest('hex').slice(0, 40)}"`
      : undefined;
    // GitHub does not count a 304 answer to a conditional request against the rate limit.
    if (etag && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, ...rateHeaders() });
      res.end();
      return 304;
    }
    if (state.rateLimitRemaining <= 0) {
      sendJson(
        res,
        403,
        { message: 'API rate limit exceeded for user ID 1.', documentation_url: DOCS, status: '403' },
        rateHeaders(),
      );
      return 403;
    }
    state.rateLimitRemaining -= 1;
    if (!pull) {
      sendJson(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' }, rateHeaders());
      return 404;
    }
    sendJson(res, 200, pull, { etag: etag!, ...rateHeaders() });
    return 200;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = handle(req, res, Buffer.concat(chunks).toString('utf8'));
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        status: status ?? 0,
      });
    });
  });
  const { origin, close } = await listenOnLoopback(server);

  // The state object itself is returned, so tests switch faults and settings by assignment.
  return Object.assign(state, {
    url: `${origin}${prefix}`,
    requests,
    setPull: (owner, repo, pull) => void pulls.set(`${owner}/${repo}/${Number(pull.number)}`, pull),
    removePull: (owner, repo, number) => void pulls.delete(`${owner}/${repo}/${number}`),
    setCommits: (owner, repo, history) => commits.setCommits(owner, repo, history),
    setCommitPulls: (owner, repo, sha, list) => commits.setCommitPulls(owner, repo, sha, list),
    statuses: feedback.statuses,
    comments: feedback.comments,
    deleteComment: (id) => feedback.deleteComment(id),
    close,
  } satisfies Omit<FakeGitHub, keyof typeof state>);
}
