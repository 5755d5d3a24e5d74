import { parseIsoInstant } from '../../shared/time.js';
import { ExternalServiceError, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import {
  type GitHubClient,
  GitHubNotFoundError,
  pullRequestStatus,
  type ScmDetails,
} from '../../integrations/github/github-client.js';
import {
  parsePullRequestUrl,
  pullRequestUrlFromParts,
  type PullRequestRef,
} from '../../integrations/github/pull-request-url.js';
import type { GitHubState, PullRequestRow, PullRequestsRepository } from './pull-requests.repository.js';
import { alreadyTracked } from './pull-requests.repository.js';
import type {
  CreatePullRequestBody,
  PullRequest,
  PullRequestListQuery,
  PullRequestStatus,
  UpdatePullRequestBody,
} from './pull-requests.schema.js';

export interface PullRequestsServiceDeps {
  repository: PullRequestsRepository;
  github: GitHubClient;
  /** `GITHUB_URL`: decides which page hosts are accepted. */
  githubApiUrl: string;
}

export function toPullRequest(row: PullRequestRow): PullRequest {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    status: row.status as PullRequestStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    openedAt: row.opened_at,
    draft: row.draft,
    mergeableState: row.mergeable_state,
  };
}

/** The parts of GitHub's answer kept on the record; `openedAt` in the service's timestamp form. */
export function gitHubStateOf(details: ScmDetails): GitHubState {
  return {
    openedAt: details.created_at === null ? null : (parseIsoInstant(details.created_at) ?? null),
    draft: details.draft,
    mergeableState: details.mergeable_state,
  };
}

const sameGitHubState = (row: PullRequestRow, state: GitHubState) => {
  const stored = toPullRequest(row);
  return (
    stored.openedAt === state.openedAt &&
    stored.draft === state.draft &&
    stored.mergeableState === state.mergeableState
  );
};

function invalidUrl(value: unknown): ValidationError {
  return ValidationError.single(
    'url',
    'INVALID_URL',
    'url must be a GitHub pull request URL such as https://github.com/{owner}/{repo}/pull/{number}',
    typeof value === 'string' && value.length <= 200 ? value : undefined,
  );
}

/** The body's target: `url`, or the compatibility pair `repository` + `pullRequestNumber`. */
function resolveTarget(body: CreatePullRequestBody, apiUrl: string): PullRequestRef {
  if (body.url !== undefined) {
    const ref = parsePullRequestUrl(body.url, apiUrl);
    if (!ref) throw invalidUrl(body.url);
    return ref;
  }
  if (body.repository !== undefined || body.pullRequestNumber !== undefined) {
    const missing = [
      ...(body.repository === undefined ? ['repository'] : []),
      ...(body.pullRequestNumber === undefined ? ['pullRequestNumber'] : []),
    ];
    if (missing.length > 0) {
      throw new ValidationError(
        missing.map((field) => ({ field, code: 'REQUIRED_FIELD' as const, message: `${field} is required` })),
      );
    }
    const url = pullRequestUrlFromParts(body.repository!, body.pullRequestNumber!, apiUrl);
    const ref = url ? parsePullRequestUrl(url, apiUrl) : undefined;
    if (!ref) {
      throw ValidationError.single('repository', 'INVALID_FORMAT', 'repository must look like "owner/repo"');
    }
    return ref;
  }
  throw ValidationError.single('url', 'REQUIRED_FIELD', 'url is required');
}

export function createPullRequestsService({ repository, github, githubApiUrl }: PullRequestsServiceDeps) {
  const notFound = (id: number) => new NotFoundError(`Pull request ${id} is not tracked`);

  /**
   * Current GitHub details of a tracked PR. Sends the stored ETag so an unchanged PR is a 304
   * (free of rate limit) served from the cached copy; stores the fresh copy otherwise, and keeps
   * `status`, `openedAt`, `draft` and `mergeableState` current either way.
   */
  async function refresh(row: PullRequestRow): Promise<{ row: PullRequestRow; details: ScmDetails }> {
    const cached = row.scm_cache;
    let result = await github.getPullRequest(row.owner, row.repo, row.number, cached ? row.etag : null);
    if (result.notModified) {
      if (cached) return { row: await keepGitHubState(row, cached), details: cached };
      result = await github.getPullRequest(row.owner, row.repo, row.number, null);
      if (result.notModified) throw new Error('GitHub answered 304 to an unconditional request');
    }
    const current = await keepGitHubState(row, result.details, {
      etag: result.etag,
      scmCache: result.details,
    });
    return { row: current, details: result.details };
  }

  /** Stores what GitHub said; a cached copy (304) is written only when it changes something. */
  async function keepGitHubState(
    row: PullRequestRow,
    details: ScmDetails,
    fresh?: { etag: string | null; scmCache: ScmDetails },
  ): Promise<PullRequestRow> {
    const status = pullRequestStatus(details) ?? row.status;
    const state = gitHubStateOf(details);
    if (!fresh && status === row.status && sameGitHubState(row, state)) return row;
    const updated = await repository.update(
      row.id,
      { status, github: state, ...fresh },
      status !== row.status,
    );
    return updated ?? row;
  }

  return {
    refresh,

    async list(page: Page, query: PullRequestListQuery) {
      const { rows, total } = await repository.list({
        limit: page.limit,
        offset: page.offset,
        ...(query.status !== undefined ? { status: query.status } : {}),
        sort: query.sort ?? 'createdAt',
        order: query.order ?? 'desc',
      });
      return { items: rows.map(toPullRequest), total };
    },

    async get(id: number): Promise<PullRequest & { scmDetails: ScmDetails }> {
      const row = await repository.findById(id);
      if (!row) throw notFound(id);
      try {
        const { row: current, details } = await refresh(row);
        return { ...toPullRequest(current), scmDetails: details };
      } catch (error) {
        if (error instanceof GitHubNotFoundError) {
          // The PR is tracked here, so this is GitHub failing to provide it (deleted, or not visible
          // to the token); 404 is kept for "not tracked".
          throw new ExternalServiceError(
            'GitHub',
            `GitHub has no pull request ${row.owner}/${row.repo}#${row.number} (deleted, or not visible to the token)`,
          );
        }
        throw error;
      }
    },

    async create(body: CreatePullRequestBody): Promise<PullRequest> {
      const ref = resolveTarget(body, githubApiUrl);
      if (await repository.findByUrl(ref.url)) throw alreadyTracked(ref.url);
      if (body.title !== undefined) {
        const row = await repository.create({ ...ref, title: body.title.trim(), status: 'open' });
        return toPullRequest(row);
      }
      let fetched;
      try {
        fetched = await github.getPullRequest(ref.owner, ref.repo, ref.number, null);
      } catch (error) {
        if (error instanceof GitHubNotFoundError) {
          throw ValidationError.single('url', 'INVALID_VALUE', `no such pull request: ${ref.url}`, ref.url);
        }
        throw error;
      }
      if (fetched.notModified) throw new Error('GitHub answered 304 to an unconditional request');
      const row = await repository.create({
        ...ref,
        title: fetched.details.title,
        // A pull request GitHub does not call open, closed or merged is taken as open.
        status: pullRequestStatus(fetched.details) ?? 'open',
        etag: fetched.etag,
        scmCache: fetched.details,
        github: gitHubStateOf(fetched.details),
      });
      return toPullRequest(row);
    },

    async update(id: number, body: UpdatePullRequestBody): Promise<PullRequest> {
      const row = await repository.update(id, {
        ...(body.title !== undefined ? { title: body.title.trim() } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
      });
      if (!row) throw notFound(id);
      return toPullRequest(row);
    },

    async remove(id: number): Promise<void> {
      if (!(await repository.delete(id))) throw notFound(id);
    },
  };
}

export type PullRequestsService = ReturnType<typeof createPullRequestsService>;
