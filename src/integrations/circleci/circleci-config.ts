import type { Config } from '../../config/config.js';

/**
 * The CircleCI project of an app, from its `pipelineUrl`
 * (`https://app.circleci.com/pipelines/<vcs>/<org>/<repo>[/...]` → `<vcs>/<org>/<repo>`),
 * else `CIRCLECI_PROJECT_SLUG`, else undefined.
 */
export function projectSlugFor(pipelineUrl: string, fallback: string | undefined): string | undefined {
  try {
    const url = new URL(pipelineUrl);
    const match = /^\/pipelines\/([^/]+)\/([^/]+)\/([^/]+)/.exec(url.pathname);
    if (url.hostname === 'app.circleci.com' && match) {
      return match
        .slice(1, 4)
        .map((part) => decodeURIComponent(part))
        .join('/');
    }
  } catch {
    // Not a URL: fall back.
  }
  return fallback || undefined;
}

/** CircleCI calls need a token; everything else has a default. */
export function circleCiConfigured(config: Pick<Config, 'circleci'>): boolean {
  return Boolean(config.circleci.token);
}

/** Where a person sees the pipeline: the CircleCI web app for circleci.com, else the server itself. */
export function pipelinePageUrl(baseUrl: string, slug: string, number: number | null): string {
  const host = new URL(baseUrl).hostname;
  const web =
    host === 'circleci.com' || host.endsWith('.circleci.com')
      ? 'https://app.circleci.com'
      : baseUrl.replace(/\/+$/, '');
  return `${web}/pipelines/${slug}${number === null ? '' : `/${number}`}`;
}
