import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { deleteById } from '../../db/delete-by-id.js';
import {
  fromDbBoolean,
  isStorableId,
  isUniqueViolation,
  parseJson,
  toCount,
  toDbBoolean,
} from '../../db/errors.js';
import type { PullRequestsTable } from '../../db/schema.js';
import { ConflictError } from '../../shared/errors.js';
import { nowIso } from '../../shared/time.js';
import type { ScmDetails } from '../../integrations/github/github-client.js';
import type { PullRequestSort } from './pull-requests.schema.js';

/**
 * A tracked pull request as services see it: `draft` a boolean (or null), the notified events a
 * list and the cached GitHub answer parsed, whichever dialect stored them.
 */
export type PullRequestRow = Omit<
  Selectable<PullRequestsTable>,
  'draft' | 'notified_events' | 'scm_cache'
> & {
  draft: boolean | null;
  notified_events: string[];
  scm_cache: ScmDetails | null;
};

const decode = (row: Selectable<PullRequestsTable>): PullRequestRow => ({
  ...row,
  draft: row.draft === null ? null : fromDbBoolean(row.draft),
  notified_events: parseJson<string[]>(row.notified_events) ?? [],
  scm_cache: parseJson<ScmDetails>(row.scm_cache),
});
const encodeCache = (details: ScmDetails | null | undefined) =>
  details === undefined ? undefined : details === null ? null : JSON.stringify(details);

export interface PullRequestInsert {
  url: string;
  owner: string;
  repo: string;
  number: number;
  title: string;
  status: string;
  etag?: string | null;
  scmCache?: ScmDetails | null;
  github?: GitHubState;
}

/** What GitHub last said about the pull request (see the columns of the same names). */
export interface GitHubState {
  openedAt: string | null;
  draft: boolean | null;
  mergeableState: string | null;
}

const githubColumns = (state: GitHubState) => ({
  opened_at: state.openedAt,
  draft: state.draft === null ? null : toDbBoolean(state.draft),
  mergeable_state: state.mergeableState,
});

export interface PullRequestPatch {
  title?: string;
  status?: string;
  notifiedEvents?: string[];
  etag?: string | null;
  scmCache?: ScmDetails | null;
  github?: GitHubState;
}

export interface PullRequestListOptions {
  limit: number;
  offset: number;
  status?: string;
  sort: PullRequestSort;
  order: 'asc' | 'desc';
}

const SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', title: 'title' } as const;

export const alreadyTracked = (url: string) => new ConflictError(`Pull request ${url} is already tracked`);

export function createPullRequestsRepository(db: Db) {
  return {
    async list(options: PullRequestListOptions): Promise<{ rows: PullRequestRow[]; total: number }> {
      let rowsQuery = db.selectFrom('pull_requests').selectAll();
      let countQuery = db.selectFrom('pull_requests').select((eb) => eb.fn.countAll().as('total'));
      if (options.status !== undefined) {
        rowsQuery = rowsQuery.where('status', '=', options.status);
        countQuery = countQuery.where('status', '=', options.status);
      }
      const [rows, count] = await Promise.all([
        rowsQuery
          .orderBy(SORT_COLUMNS[options.sort], options.order)
          .orderBy('id', options.order)
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        countQuery.executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(decode), total: toCount(count.total) };
    },

    async listAll(): Promise<PullRequestRow[]> {
      return (await db.selectFrom('pull_requests').selectAll().orderBy('id').execute()).map(decode);
    },

    async findById(id: number): Promise<PullRequestRow | undefined> {
      if (!isStorableId(id)) return undefined;
      const row = await db.selectFrom('pull_requests').selectAll().where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    async findByUrl(url: string): Promise<PullRequestRow | undefined> {
      const row = await db.selectFrom('pull_requests').selectAll().where('url', '=', url).executeTakeFirst();
      return row && decode(row);
    },

    /** Ids of the tracked pull requests among `numbers` of one repository (names compared case-insensitively). */
    async trackedIds(owner: string, repo: string, numbers: readonly number[]): Promise<Map<number, number>> {
      if (numbers.length === 0) return new Map();
      const rows = await db
        .selectFrom('pull_requests')
        .select(['id', 'owner', 'repo', 'number'])
        .where('number', 'in', [...new Set(numbers)])
        .orderBy('id')
        .execute();
      const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
      const ids = new Map<number, number>();
      for (const row of rows) {
        if (same(row.owner, owner) && same(row.repo, repo) && !ids.has(row.number))
          ids.set(row.number, row.id);
      }
      return ids;
    },

    async create(input: PullRequestInsert): Promise<PullRequestRow> {
      const now = nowIso();
      try {
        const row = await db
          .insertInto('pull_requests')
          .values({
            url: input.url,
            owner: input.owner,
            repo: input.repo,
            number: input.number,
            title: input.title,
            status: input.status,
            notified_events: '[]',
            etag: input.etag ?? null,
            scm_cache: encodeCache(input.scmCache) ?? null,
            ...githubColumns(input.github ?? { openedAt: null, draft: null, mergeableState: null }),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return decode(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyTracked(input.url);
        throw error;
      }
    },

    /** `touch` moves `updated_at`: for changes of the record itself, not for a refreshed cache. */
    async update(id: number, patch: PullRequestPatch, touch = true): Promise<PullRequestRow | undefined> {
      if (!isStorableId(id)) return undefined;
      const row = await db
        .updateTable('pull_requests')
        .set({
          ...(patch.title !== undefined ? { title: patch.title } : {}),
          ...(patch.status !== undefined ? { status: patch.status } : {}),
          ...(patch.notifiedEvents !== undefined
            ? { notified_events: JSON.stringify(patch.notifiedEvents) }
            : {}),
          ...(patch.etag !== undefined ? { etag: patch.etag } : {}),
          ...(patch.scmCache !== undefined ? { scm_cache: encodeCache(patch.scmCache) } : {}),
          ...(patch.github !== undefined ? githubColumns(patch.github) : {}),
          ...(touch ? { updated_at: nowIso() } : {}),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && decode(row);
    },

    delete(id: number): Promise<boolean> {
      return deleteById(db, 'pull_requests', id);
    },
  };
}

export type PullRequestsRepository = ReturnType<typeof createPullRequestsRepository>;
