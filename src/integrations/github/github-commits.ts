/**
 * What the service reads of GitHub's commit comparison and of the pull requests that contain a
 * commit. Answers are read field by field: a field missing or of another type becomes an empty
 * value, so a trimmed answer (a proxy, an older Enterprise version) still gives a list.
 */

/** A commit between two others, oldest first as GitHub lists them. */
export interface ComparedCommit {
  sha: string;
  /** The first line of the commit message. */
  message: string;
  /** The author's GitHub login when GitHub matched the commit to an account, else the git name. */
  author: string;
  /** The commit's page. */
  url: string;
}

export interface Comparison {
  commits: ComparedCommit[];
  /** How many commits the range holds; more than `commits.length` when GitHub cut the list. */
  totalCommits: number;
}

/** A pull request that contains a commit (`GET /repos/{owner}/{repo}/commits/{sha}/pulls`). */
export interface CommitPullRequest {
  number: number;
  title: string;
  url: string;
  /** The login of whoever opened it ('' when GitHub does not say). */
  author: string;
  mergedAt: string | null;
}

// PostgreSQL text cannot hold NUL; GitHub's strings are stored as JSON text on both dialects.
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value.replaceAll('\u0000', '') : null;
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const subjectOf = (message: string) => (message.split(/\r?\n/, 1)[0] ?? '').trim();

function toComparedCommit(raw: unknown): ComparedCommit | undefined {
  const entry = record(raw);
  const sha = text(entry.sha);
  if (!sha) return undefined;
  const gitCommit = record(entry.commit);
  const login = text(record(entry.author).login);
  return {
    sha,
    message: subjectOf(text(gitCommit.message) ?? ''),
    author: login || (text(record(gitCommit.author).name) ?? ''),
    url: text(entry.html_url) ?? '',
  };
}

/** GitHub's commit comparison (`GET /repos/{owner}/{repo}/compare/{base}...{head}`). */
export function toComparison(raw: unknown): Comparison {
  const answer = record(raw);
  const commits = list(answer.commits)
    .map(toComparedCommit)
    .filter((commit): commit is ComparedCommit => commit !== undefined);
  const total = answer.total_commits;
  return {
    commits,
    totalCommits:
      Number.isInteger(total) && (total as number) >= commits.length ? (total as number) : commits.length,
  };
}

/** GitHub's list of pull requests containing a commit; entries without a number are skipped. */
export function toCommitPullRequests(raw: unknown): CommitPullRequest[] {
  const pulls: CommitPullRequest[] = [];
  for (const item of list(raw)) {
    const pull = record(item);
    if (!Number.isInteger(pull.number)) continue;
    pulls.push({
      number: pull.number as number,
      title: text(pull.title) ?? '',
      url: text(pull.html_url) ?? '',
      author: text(record(pull.user).login) ?? '',
      mergedAt: text(pull.merged_at),
    });
  }
  return pulls;
}
