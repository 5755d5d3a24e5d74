import type { Db } from '../../db/database.js';
import { isStorableId, parseJson } from '../../db/errors.js';
import { nowIso } from '../../shared/time.js';
import { specWhyOf } from '../reports/specs.repository.js';

/** A pull request that brought a commit in, as GitHub named it. */
export interface RangePullRequest {
  number: number;
  title: string;
  url: string;
  author: string;
}

export interface RangeCommit {
  sha: string;
  message: string;
  author: string;
  url: string;
  pullRequest: RangePullRequest | null;
}

/** What GitHub said about the commits between two others: stored once, valid for good. */
export interface CommitRange {
  commits: RangeCommit[];
  truncated: boolean;
}

export interface RangeKey {
  /** `owner/repo` in lower case. */
  repository: string;
  base: string;
  head: string;
}

/** A spec as a ready report holds it, with the commits that bound its failing streak. */
export interface ReportedSpec {
  lastStatus: string;
  firstFailedCommitSha: string | null;
  lastPassedCommitSha: string | null;
}

export function createSuspectsRepository(db: Db) {
  return {
    async findRange(key: RangeKey): Promise<CommitRange | undefined> {
      const row = await db
        .selectFrom('suspect_ranges')
        .select('answer')
        .where('repository', '=', key.repository)
        .where('base_sha', '=', key.base)
        .where('head_sha', '=', key.head)
        .executeTakeFirst();
      return row ? (parseJson<CommitRange>(row.answer) ?? undefined) : undefined;
    },

    /** Keeps the first answer stored: two processes asking at once store the same thing. */
    async saveRange(key: RangeKey, range: CommitRange): Promise<void> {
      await db
        .insertInto('suspect_ranges')
        .values({
          repository: key.repository,
          base_sha: key.base,
          head_sha: key.head,
          answer: JSON.stringify(range),
          created_at: nowIso(),
        })
        .onConflict((conflict) => conflict.columns(['repository', 'base_sha', 'head_sha']).doNothing())
        .execute();
    },

    /**
     * The spec in the app's detail of the date's ready report, or of its last ready version while
     * it regenerates or after a regeneration failed (those figures stay until a newer version is
     * ready): `no_report` when the date was never ready, undefined when the report does not list
     * the spec for the app.
     */
    async specInReport(
      appId: number,
      date: string,
      spec: string,
    ): Promise<ReportedSpec | 'no_report' | undefined> {
      const summary = await db
        .selectFrom('e2e_report_summaries')
        .select('id')
        .where('date', '=', date)
        .where((where) => where.or([where('status', '=', 'ready'), where('ready_at', 'is not', null)]))
        .executeTakeFirst();
      if (!summary) return 'no_report';
      if (!isStorableId(appId)) return undefined;
      const row = await db
        .selectFrom('e2e_report_specs as s')
        .innerJoin('e2e_report_details as d', 'd.id', 's.report_detail_id')
        .select(['s.last_status', 's.history'])
        .where('d.report_summary_id', '=', summary.id)
        .where('d.app_id', '=', appId)
        .where('s.spec', '=', spec)
        .executeTakeFirst();
      if (!row) return undefined;
      // Reports generated before the spec history was kept know no streak bounds (nulls).
      const { firstFailedCommitSha, lastPassedCommitSha } = specWhyOf(row.history);
      return { lastStatus: row.last_status, firstFailedCommitSha, lastPassedCommitSha };
    },
  };
}

export type SuspectsRepository = ReturnType<typeof createSuspectsRepository>;
