import type { GitHubClient } from '../../integrations/github/github-client.js';
import { parseRepositoryUrl, type RepositoryRef } from '../../integrations/github/repository-url.js';
import { NotFoundError, UnprocessableEntityError } from '../../shared/errors.js';
import type { Log } from '../../shared/log.js';
import { createCommitRanges } from './commit-ranges.js';
import type { RangePullRequest, SuspectsRepository } from './suspects.repository.js';
import type { Suspects } from './suspects.schema.js';

/** Where a failing spec's streak began and the last commit it passed on, in a date's report. */
export type StreakAnswer =
  { status: 'no_report' | 'not_failing' | 'no_passing_commit' } | { base: string; head: string };

/** Finds a spec's streak bounds; injected, so the report's commit data can come from anywhere. */
export type StreakLookup = (appId: number, date: string, spec: string) => Promise<StreakAnswer>;

/** A suspect commit as a run's verdict lists it. */
export interface SuspectCommit {
  sha: string;
  author: string;
  message: string;
  pullRequest: number | null;
}

/** A suspect pull request as notifications carry it. */
export type SuspectPullRequest = RangePullRequest;

export interface SuspectsServiceDeps {
  findApp: (id: number) => Promise<{ repository_url: string | null } | undefined>;
  lookup: StreakLookup;
  github: Pick<GitHubClient, 'compareCommits' | 'listPullRequestsOfCommit'>;
  ranges: Pick<SuspectsRepository, 'findRange' | 'saveRange'>;
  /** Ids of tracked pull requests by number (the pull-requests repository). */
  trackedIds: (owner: string, repo: string, numbers: readonly number[]) => Promise<Map<number, number>>;
  log: Pick<Log, 'warn'>;
  /** Pull-request look-ups in flight at once for one range. */
  concurrency?: number;
  /** Ranges kept in this process in front of the database. */
  memoryEntries?: number;
}

const NOT_FOUND_MESSAGES = {
  no_report: (date: string) => `No ready report for ${date}`,
  not_failing: (date: string, spec: string) => `Spec ${spec} is not failing in the report of ${date}`,
  no_passing_commit: (date: string, spec: string) =>
    `No passing commit of spec ${spec} before its failing streak in the report of ${date}`,
} as const;

/** The app's repository, or 422 when it has none or one that names no repository. */
function repositoryOf(appId: number, url: string | null): RepositoryRef {
  if (url === null) throw new UnprocessableEntityError(`Application ${appId} has no repositoryUrl`);
  const ref = parseRepositoryUrl(url);
  if (!ref) {
    throw new UnprocessableEntityError(
      `The repositoryUrl of application ${appId} does not name a repository as <scheme>://<host>/<owner>/<repo>`,
    );
  }
  return ref;
}

export function createSuspectsService(deps: SuspectsServiceDeps) {
  const rangeOf = createCommitRanges({
    github: deps.github,
    ranges: deps.ranges,
    log: deps.log,
    concurrency: deps.concurrency ?? 8,
    memoryEntries: deps.memoryEntries ?? 50,
  });

  return {
    /** `GET /api/apps/:id/suspects`: the commits between the spec's last pass and its first failure. */
    async suspects(appId: number, date: string, spec: string): Promise<Suspects> {
      const app = await deps.findApp(appId);
      if (!app) throw new NotFoundError(`Application ${appId} not found`);
      const ref = repositoryOf(appId, app.repository_url);
      const streak = await deps.lookup(appId, date, spec);
      if ('status' in streak) throw new NotFoundError(NOT_FOUND_MESSAGES[streak.status](date, spec));
      const range = await rangeOf(ref, streak.base, streak.head);
      const numbers = range.commits.flatMap((commit) =>
        commit.pullRequest ? [commit.pullRequest.number] : [],
      );
      const tracked = await deps.trackedIds(ref.owner, ref.repo, numbers);
      return {
        spec,
        base: streak.base,
        head: streak.head,
        commits: range.commits.map((commit) => ({
          sha: commit.sha,
          message: commit.message,
          author: commit.author,
          url: commit.url,
          pullRequest: commit.pullRequest && {
            number: commit.pullRequest.number,
            title: commit.pullRequest.title,
            url: commit.pullRequest.url,
            trackedId: tracked.get(commit.pullRequest.number) ?? null,
          },
        })),
        truncated: range.truncated,
      };
    },

    /**
     * The commits between `base` (excluded) and `head`, newest first, with the pull request that
     * brought each in, as far as they can be had within `budgetMs`; else an empty list. Never throws.
     */
    async commitsWithin(
      input: { repositoryUrl: string | null; base: string | null; head: string | null },
      budgetMs: number,
    ): Promise<SuspectCommit[]> {
      const ref = input.repositoryUrl === null ? undefined : parseRepositoryUrl(input.repositoryUrl);
      if (!ref || !input.base || !input.head || input.base === input.head) return [];
      let timer: NodeJS.Timeout | undefined;
      try {
        const outOfTime = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), Math.max(0, budgetMs));
        });
        const answer = await Promise.race([rangeOf(ref, input.base, input.head), outOfTime]);
        if (!answer) return [];
        return answer.commits
          .map((commit) => ({
            sha: commit.sha,
            author: commit.author,
            message: commit.message,
            pullRequest: commit.pullRequest ? commit.pullRequest.number : null,
          }))
          .reverse();
      } catch {
        return [];
      } finally {
        clearTimeout(timer);
      }
    },

    /**
     * The distinct pull requests between `base` and `head`, in the order their commits came, as
     * far as they can be had within `budgetMs`; otherwise (no repository, no commits, GitHub
     * failing or slow) an empty list. Never throws. A walk still running when the budget ends
     * goes on and stores its answer, so the next ask finds it.
     */
    async pullRequestsWithin(
      input: { repositoryUrl: string | null; base: string | null; head: string | null },
      budgetMs: number,
    ): Promise<SuspectPullRequest[]> {
      const ref = input.repositoryUrl === null ? undefined : parseRepositoryUrl(input.repositoryUrl);
      if (!ref || !input.base || !input.head) return [];
      let timer: NodeJS.Timeout | undefined;
      try {
        const range = rangeOf(ref, input.base, input.head);
        const outOfTime = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), Math.max(0, budgetMs));
        });
        const answer = await Promise.race([range, outOfTime]);
        if (!answer) return [];
        const seen = new Set<number>();
        return answer.commits.flatMap(({ pullRequest }) => {
          if (!pullRequest || seen.has(pullRequest.number)) return [];
          seen.add(pullRequest.number);
          return [{ ...pullRequest }];
        });
      } catch {
        return [];
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type SuspectsService = ReturnType<typeof createSuspectsService>;
