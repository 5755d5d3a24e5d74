/** A GitHub repository named by the path of its page URL. */
export interface RepositoryRef {
  owner: string;
  repo: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The repository of a page URL `<scheme>://<host>/<owner>/<repo>` (github.com or an Enterprise
 * host: the API calls go to `GITHUB_URL` either way). A trailing slash and a `.git` ending are
 * allowed, as people paste clone URLs; any other path, or none, gives undefined.
 */
export function parseRepositoryUrl(raw: string): RepositoryRef | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const match = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.pathname);
  if (!match) return undefined;
  const [, owner, repo] = match as unknown as [string, string, string];
  if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return undefined;
  return { owner, repo };
}
