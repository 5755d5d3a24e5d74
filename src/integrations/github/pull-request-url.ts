/** A pull request on GitHub (or a GitHub Enterprise host), located by repository and number. */
export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
  /** The canonical page URL: `{web base}/{owner}/{repo}/pull/{number}`. */
  url: string;
}

const PUBLIC_API = 'https://api.github.com';
const PUBLIC_WEB = 'https://github.com';
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export function isPublicGitHub(apiUrl: string): boolean {
  return apiUrl.replace(/\/+$/, '') === PUBLIC_API;
}

/**
 * Where the pull-request pages live for a given API base: github.com for the public API, the
 * scheme and host of `GITHUB_URL` for GitHub Enterprise (`https://ghe.example.com/api/v3`).
 */
export function webBaseOf(apiUrl: string): string {
  return isPublicGitHub(apiUrl) ? PUBLIC_WEB : new URL(apiUrl).origin;
}

/** The page origins accepted for new pull requests (docs/contract-notes.md, "Pull-request URLs"). */
export function acceptedOrigins(apiUrl: string): string[] {
  return isPublicGitHub(apiUrl) ? [PUBLIC_WEB] : [PUBLIC_WEB, webBaseOf(apiUrl)];
}

/**
 * Parses and normalises a pull-request page URL: a trailing slash, a `/files` (or `/commits`,
 * `/checks`) tab, a query string and a fragment are stripped. Returns undefined for anything
 * else, including hosts other than the accepted ones.
 */
export function parsePullRequestUrl(raw: string, apiUrl: string): PullRequestRef | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  const origin = acceptedOrigins(apiUrl).find((candidate) => candidate === url.origin);
  if (!origin) return undefined;
  const match = /^\/([^/]+)\/([^/]+)\/pull\/([1-9][0-9]{0,9})(?:\/(?:files|commits|checks))?\/?$/.exec(
    url.pathname,
  );
  if (!match) return undefined;
  const [, owner, repo, digits] = match as unknown as [string, string, string, string];
  const number = Number(digits);
  if (!NAME.test(owner) || !NAME.test(repo) || number > 2_147_483_647) return undefined;
  return { owner, repo, number, url: `${origin}/${owner}/${repo}/pull/${number}` };
}

/** The compatibility body `{repository: "owner/repo", pullRequestNumber}` as a page URL. */
export function pullRequestUrlFromParts(
  repository: string,
  number: number,
  apiUrl: string,
): string | undefined {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository.trim());
  if (!match || !NAME.test(match[1]!) || !NAME.test(match[2]!)) return undefined;
  if (!Number.isSafeInteger(number) || number < 1) return undefined;
  return `${webBaseOf(apiUrl)}/${match[1]}/${match[2]}/pull/${number}`;
}
