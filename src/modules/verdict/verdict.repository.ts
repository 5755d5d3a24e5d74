import type { Db } from '../../db/database.js';
import { specsWithTheirUpload } from '../test-results/test-results.repository.js';

/** An upload of the run, as the verdict needs it. */
export interface RunUploadRow {
  id: number;
  attempt: number;
  created_at: string;
  commit_sha: string | null;
  branch: string | null;
  status: string;
  run_url: string | null;
}

export interface RunSpecRow {
  upload_id: number;
  spec: string;
  status: string;
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  first_failure_message: string | null;
}

export interface RunFailureRow {
  upload_id: number;
  spec: string;
  test: string;
  message: string;
}

/** A spec's result in an earlier upload of the app (any branch). */
export interface PastSpecRow {
  upload_id: number;
  run_number: number;
  attempt: number;
  created_at: string;
  commit_sha: string | null;
  branch: string | null;
  spec: string;
  status: string;
  flaky: number;
}

/** Earlier spec results read per verdict: enough for a 14-day window and a streak of any app. */
const HISTORY_ROWS = 5000;
const IN_CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += IN_CHUNK) out.push(items.slice(start, start + IN_CHUNK));
  return out;
}

/** The SQL of the verdict over the stored uploads, specs and failures (both dialects). */
export function createVerdictRepository(db: Db) {
  return {
    async findApp(appId: number) {
      return db
        .selectFrom('apps')
        .select(['id', 'name', 'code', 'repository_url', 'default_branch', 'pr_feedback'])
        .where('id', '=', appId)
        .executeTakeFirst();
    },

    async runUploads(appId: number, runNumber: number): Promise<RunUploadRow[]> {
      return db
        .selectFrom('test_result_uploads')
        .select(['id', 'attempt', 'created_at', 'commit_sha', 'branch', 'status', 'run_url'])
        .where('app_id', '=', appId)
        .where('run_number', '=', runNumber)
        .orderBy('id')
        .execute();
    },

    async specsOf(uploadIds: readonly number[]): Promise<RunSpecRow[]> {
      const rows: RunSpecRow[] = [];
      for (const ids of chunks(uploadIds)) {
        rows.push(
          ...(await db
            .selectFrom('test_result_specs')
            .select([
              'upload_id',
              'spec',
              'status',
              'tests',
              'passed',
              'failed',
              'flaky',
              'skipped',
              'first_failure_message',
            ])
            .where('upload_id', 'in', ids)
            .execute()),
        );
      }
      return rows;
    },

    async failuresOf(uploadIds: readonly number[], specs?: readonly string[]): Promise<RunFailureRow[]> {
      const rows: RunFailureRow[] = [];
      for (const ids of chunks(uploadIds)) {
        let query = db
          .selectFrom('test_result_failures')
          .select(['upload_id', 'spec', 'test', 'message'])
          .where('upload_id', 'in', ids);
        if (specs) query = query.where('spec', 'in', [...specs]);
        rows.push(...(await query.execute()));
      }
      return rows;
    },

    /** The newest results of `specs` in the app's uploads before `beforeIso`, other runs only. */
    async pastSpecs(
      appId: number,
      runNumber: number,
      specs: readonly string[],
      beforeIso: string,
    ): Promise<PastSpecRow[]> {
      if (specs.length === 0) return [];
      return specsWithTheirUpload(db)
        .select(['s.status', 's.flaky'])
        .where('u.app_id', '=', appId)
        .where('u.run_number', '!=', runNumber)
        .where('u.created_at', '<', beforeIso)
        .where('s.spec', 'in', [...specs].slice(0, IN_CHUNK))
        .orderBy('u.created_at', 'desc')
        .orderBy('s.upload_id', 'desc')
        .limit(HISTORY_ROWS)
        .execute();
    },

    /** Active quarantines of the app: not lifted, not expired at `nowIso`. */
    async activeQuarantines(appId: number, nowIso: string) {
      const rows = await db
        .selectFrom('quarantines')
        .select(['spec', 'ticket_key', 'expires_at'])
        .where('app_id', '=', appId)
        .where('lifted_at', 'is', null)
        .execute();
      return rows.filter((row) => row.expires_at === null || row.expires_at > nowIso);
    },
  };
}

export type VerdictRepository = ReturnType<typeof createVerdictRepository>;
