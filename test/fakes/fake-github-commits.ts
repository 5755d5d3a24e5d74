/**
 * The commit side of the fake GitHub: a linear history per repository, the comparison of two of
 * its commits (`GET /repos/{owner}/{repo}/compare/{base}...{head}`) and the pull requests that
 * contain a commit (`GET /repos/{owner}/{repo}/commits/{sha}/pulls`), in GitHub's answer shapes.
 */

const API = 'https://api.github.com';
const WEB = 'https://github.com';
const DOCS = 'https://docs.github.com/rest';

export interface FakeCommitOptions {
  message?: string;
  /** The git author name written in the commit. */
  authorName?: string;
  /** The GitHub account GitHub matched the commit to; null when it matched none. */
  authorLogin?: string | null;
  date?: string;
  parent?: string;
}

const simpleUser = (login: string, id: number) => ({
  login,
  id,
  node_id: `U_${id}`,
  avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  gravatar_id: '',
  url: `${API}/users/${login}`,
  html_url: `${WEB}/${login}`,
  type: 'User',
  site_admin: false,
});

/** A commit as GitHub lists it in a comparison (the `commit` schema). */
export function fakeCommit(
  owner: string,
  repo: string,
  sha: string,
  options: FakeCommitOptions = {},
): Record<string, unknown> {
  const name = options.authorName ?? 'Mona Lisa';
  const login = options.authorLogin === undefined ? 'octocat' : options.authorLogin;
  const date = options.date ?? '2025-03-01T08:00:00Z';
  const gitUser = { name, email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`, date };
  const apiBase = `${API}/repos/${owner}/${repo}`;
  return {
    url: `${apiBase}/commits/${sha}`,
    sha,
    node_id: `C_${sha.slice(0, 12)}`,
    html_url: `${WEB}/${owner}/${repo}/commit/${sha}`,
    comments_url: `${apiBase}/commits/${sha}/comments`,
    commit: {
      url: `${apiBase}/git/commits/${sha}`,
      author: gitUser,
      committer: { ...gitUser, name: 'GitHub', email: 'noreply@github.com' },
      message: options.message ?? `Change ${sha.slice(0, 7)}`,
      comment_count: 0,
      tree: { sha: 'f'.repeat(40), url: `${apiBase}/git/trees/${'f'.repeat(40)}` },
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    author: login === null ? null : simpleUser(login, 1),
    committer: simpleUser('web-flow', 19864447),
    parents: options.parent
      ? [
          {
            sha: options.parent,
            url: `${apiBase}/commits/${options.parent}`,
            html_url: `${WEB}/${owner}/${repo}/commit/${options.parent}`,
          },
        ]
      : [],
  };
}

/** A pull request as the commit → pulls list gives it (the `pull-request-simple` schema). */
export function fakeCommitPull(
  owner: string,
  repo: string,
  number: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const apiBase = `${API}/repos/${owner}/${repo}`;
  const page = `${WEB}/${owner}/${repo}/pull/${number}`;
  return {
    url: `${apiBase}/pulls/${number}`,
    id: 5000 + number,
    node_id: `PR_${number}`,
    html_url: page,
    diff_url: `${page}.diff`,
    patch_url: `${page}.patch`,
    issue_url: `${apiBase}/issues/${number}`,
    commits_url: `${apiBase}/pulls/${number}/commits`,
    review_comments_url: `${apiBase}/pulls/${number}/comments`,
    review_comment_url: `${apiBase}/pulls/comments{/number}`,
    comments_url: `${apiBase}/issues/${number}/comments`,
    statuses_url: `${apiBase}/statuses/${'a'.repeat(40)}`,
    number,
    state: 'closed',
    locked: false,
    title: `Pull request ${number}`,
    user: simpleUser('octocat', 1),
    body: null,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: '2025-02-27T08:00:00Z',
    updated_at: '2025-02-28T08:00:00Z',
    closed_at: '2025-02-28T08:00:00Z',
    merged_at: '2025-02-28T08:00:00Z',
    merge_commit_sha: 'c'.repeat(40),
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: { label: `${owner}:feature-${number}`, ref: `feature-${number}`, sha: 'a'.repeat(40) },
    base: { label: `${owner}:main`, ref: 'main', sha: 'b'.repeat(40) },
    _links: { self: { href: `${apiBase}/pulls/${number}` }, html: { href: page } },
    author_association: 'MEMBER',
    auto_merge: null,
    draft: false,
    ...overrides,
  };
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

const notFound = (message = 'Not Found'): FakeAnswer => ({
  status: 404,
  body: { message, documentation_url: DOCS, status: '404' },
});

/** Without paging parameters GitHub lists at most this many commits, ending with the newest. */
const UNPAGED_LIMIT = 250;

export function createFakeCommitStore() {
  const histories = new Map<string, Record<string, unknown>[]>();
  const pullsByCommit = new Map<string, Record<string, unknown>[]>();
  const key = (owner: string, repo: string) => `${owner}/${repo}`.toLowerCase();

  function compare(owner: string, repo: string, basehead: string, query: URLSearchParams): FakeAnswer {
    const history = histories.get(key(owner, repo));
    const [base, head] = basehead.split('...') as [string, string | undefined];
    if (!history || head === undefined) return notFound();
    const indexOf = (sha: string) => history.findIndex((commit) => commit.sha === sha);
    const [baseAt, headAt] = [indexOf(base), indexOf(head)];
    if (baseAt < 0 || headAt < 0) return notFound(`No commit found for SHA: ${baseAt < 0 ? base : head}`);
    const ahead = history.slice(baseAt + 1, headAt + 1);
    const paged = query.has('per_page') || query.has('page');
    let commits = ahead.slice(-UNPAGED_LIMIT);
    if (paged) {
      const perPage = Math.min(100, Number(query.get('per_page') ?? 30));
      const page = Number(query.get('page') ?? 1);
      commits = ahead.slice((page - 1) * perPage, page * perPage);
    }
    const page = `${WEB}/${owner}/${repo}/compare/${base}...${head}`;
    return {
      status: 200,
      body: {
        url: `${API}/repos/${owner}/${repo}/compare/${base}...${head}`,
        html_url: page,
        permalink_url: page,
        diff_url: `${page}.diff`,
        patch_url: `${page}.patch`,
        base_commit: history[baseAt],
        merge_base_commit: history[Math.min(baseAt, headAt)],
        status: headAt === baseAt ? 'identical' : headAt > baseAt ? 'ahead' : 'behind',
        ahead_by: ahead.length,
        behind_by: Math.max(0, baseAt - headAt),
        total_commits: ahead.length,
        commits,
        files: [],
      },
    };
  }

  return {
    /** The repository's history, oldest first (each commit from `fakeCommit`). */
    setCommits(owner: string, repo: string, commits: Record<string, unknown>[]) {
      histories.set(key(owner, repo), commits);
    },
    /** The pull requests containing a commit (each from `fakeCommitPull`). */
    setCommitPulls(owner: string, repo: string, sha: string, pulls: Record<string, unknown>[]) {
      pullsByCommit.set(`${key(owner, repo)}@${sha}`, pulls);
    },
    /** The answer to a commit route, or undefined when the path is not one. */
    answer(path: string, query: URLSearchParams): FakeAnswer | undefined {
      const comparing = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([^/]+)$/.exec(path);
      if (comparing) {
        const [, owner, repo, basehead] = comparing as unknown as [string, string, string, string];
        return compare(owner, repo, decodeURIComponent(basehead), query);
      }
      const pulls = /^\/repos\/([^/]+)\/([^/]+)\/commits\/([^/]+)\/pulls$/.exec(path);
      if (!pulls) return undefined;
      const [, owner, repo, sha] = pulls as unknown as [string, string, string, string];
      const history = histories.get(key(owner, repo));
      if (!history?.some((commit) => commit.sha === sha)) {
        return {
          status: 422,
          body: { message: `No commit found for SHA: ${sha}`, documentation_url: DOCS, status: '422' },
        };
      }
      return { status: 200, body: pullsByCommit.get(`${key(owner, repo)}@${sha}`) ?? [] };
    },
  };
}
