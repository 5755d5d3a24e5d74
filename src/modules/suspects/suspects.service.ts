import type { GitHubClient } from '../../integrations/github/github-client.js';
import type { CommitPullRequest } from '../../integrations/github/github-commits.js';
import { parseRepositoryUrl, type RepositoryRef } from '../../integrations/github/repository-url.js';
import { NotFoundError, UnprocessableEntityError } from '../../shared/errors.js';
import type { Log } from '../../shared/log.js';
import type {
  CommitRange,
  RangeCommit,
  RangeKey,
  RangePullRequest,
  SuspectsRepository,
} from './suspects.repository.js';
import type { Suspects } from './suspects.schema.js';

/** Where a failing spec's streak began and the last commit it passed on, in a date's report. */
export type StreakAnswer =
  { status: 'no_report' | 'not_failing' | 'no_passing_commit' } | { base: string; head: string };

/** Finds a spec's streak bounds; injected, so the report's commit data can come from anywhere. */
export type StreakLookup = (appId: number, date: string, spec: string) => Promise<StreakAnswer>;

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

/** The most commits an answer lists (what GitHub lists without paging). */
export const MAX_COMMITS = 250;

const NOT_FOUND_MESSAGES = {
  no_report: (date: string) => `No ready report for ${date}`,
  not_failing: (date: string, spec: string) => `Spec ${spec} is not failing in the report of ${date}`,
  no_passing_commit: (date: string, spec: string) =>
    `No passing commit of spec ${spec} before its failing streak in the report of ${date}`,
} as const;

/** Runs `work` over `items` with at most `limit` at once; the first failure fails the whole. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// GitHub lists every pull request containing the commit; the one merged is what brought it in.
const mergedPullRequest = (pulls: CommitPullRequest[]): RangePullRequest | null => {
  const merged = pulls.find((pull) => pull.mergedAt !== null);
  return merged
    ? { number: merged.number, title: merged.title, url: merged.url, author: merged.author }
    : null;
};

export function createSuspectsService(deps: SuspectsServiceDeps) {
  const { github, ranges, log } = deps;
  const concurrency = deps.concurrency ?? 8;
  const memoryEntries = deps.memoryEntries ?? 50;
  // Answers (or answers on their way) by range: concurrent asks share one GitHub walk.
  const memory = new Map<string, Promise<CommitRange>>();

  async function fetchRange(ref: RepositoryRef, base: string, head: string): Promise<CommitRange> {
    const comparison = await github.compareCommits(ref.owner, ref.repo, base, head);
    const listed = comparison.commits.slice(0, MAX_COMMITS);
    const pulls = await mapLimited(listed, concurrency, (commit) =>
      github.listPullRequestsOfCommit(ref.owner, ref.repo, commit.sha),
    );
    const commits: RangeCommit[] = listed.map((commit, i) => ({
      ...commit,
      pullRequest: mergedPullRequest(pulls[i]!),
    }));
    return { commits, truncated: comparison.totalCommits > listed.length };
  }

  async function storedOrFetched(ref: RepositoryRef, key: RangeKey): Promise<CommitRange> {
    const stored = await ranges.findRange(key);
    if (stored) return stored;
    const range = await fetchRange(ref, key.base, key.head);
    try {
      await ranges.saveRange(key, range);
    } catch (error) {
      // The answer is right either way; the next ask fetches it again.
      log.warn(`suspects: could not store ${key.repository} ${key.base}...${key.head}: ${String(error)}`);
    }
    return range;
  }

  function rangeOf(ref: RepositoryRef, base: string, head: string): Promise<CommitRange> {
    const key: RangeKey = {
      repository: `${ref.owner}/${ref.repo}`.toLowerCase(),
      base: base.toLowerCase(),
      head: head.toLowerCase(),
    };
    const id = `${key.repository} ${key.base} ${key.head}`;
    const known = memory.get(id);
    if (known) {
      memory.delete(id);
      memory.set(id, known);
      return known;
    }
    const pending = storedOrFetched(ref, key);
    memory.set(id, pending);
    if (memory.size > memoryEntries) memory.delete(memory.keys().next().value!);
    pending.catch(() => {
      if (memory.get(id) === pending) memory.delete(id);
    });
    return pending;
  }

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
