import { LRUCache } from 'lru-cache';
import type { GitHubClient } from '../../integrations/github/github-client.js';
import type { CommitPullRequest } from '../../integrations/github/github-commits.js';
import type { RepositoryRef } from '../../integrations/github/repository-url.js';
import type { Log } from '../../shared/log.js';
import type {
  CommitRange,
  RangeCommit,
  RangeKey,
  RangePullRequest,
  SuspectsRepository,
} from './suspects.repository.js';

/** The most commits an answer lists (what GitHub lists without paging). */
export const MAX_COMMITS = 250;

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

/**
 * The commits of a range with the pull request that brought each one in: from this process's
 * memory, else the database (`suspect_ranges`, shared by every process; commits never change),
 * else GitHub (stored for the next ask).
 */
export function createCommitRanges(deps: {
  github: Pick<GitHubClient, 'compareCommits' | 'listPullRequestsOfCommit'>;
  ranges: Pick<SuspectsRepository, 'findRange' | 'saveRange'>;
  log: Pick<Log, 'warn'>;
  concurrency: number;
  memoryEntries: number;
}): (ref: RepositoryRef, base: string, head: string) => Promise<CommitRange> {
  const { github, ranges, log, concurrency } = deps;
  // Answers (or answers on their way) by range: concurrent asks share one GitHub walk.
  const memory = new LRUCache<string, Promise<CommitRange>>({ max: deps.memoryEntries });

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
    if (known) return known;
    const pending = storedOrFetched(ref, key);
    memory.set(id, pending);
    pending.catch(() => {
      if (memory.peek(id) === pending) memory.delete(id);
    });
    return pending;
  }

  return rangeOf;
}
