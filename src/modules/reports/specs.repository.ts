import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, toCount } from '../../db/errors.js';
import type { E2eReportSpecsTable } from '../../db/schema.js';
import type { SpecResult, SpecStat } from './spec-aggregation.js';

export type SpecRowStored = Selectable<E2eReportSpecsTable>;

/** 16 columns per row: 500 rows stay far below either database's bound-parameter limit. */
const INSERT_BATCH = 500;

/** The spec statistics of one stored detail, already in the endpoint's order (their position). */
export interface DetailSpecs {
  reportDetailId: number;
  specs: readonly SpecStat[];
}

/**
 * Stores the spec statistics of details in statements of INSERT_BATCH rows, filled across details
 * (a report of 50 apps with 100 specs each is 10 statements, not 50).
 */
export async function insertSpecs(db: Db, details: readonly DetailSpecs[]): Promise<void> {
  let batch: Insertable<E2eReportSpecsTable>[] = [];
  for (const { reportDetailId, specs } of details) {
    for (let position = 0; position < specs.length; position += 1) {
      const spec = specs[position]!;
      batch.push({
        report_detail_id: reportDetailId,
        position,
        spec: spec.spec,
        total_runs: spec.totalRuns,
        failed_runs: spec.failedRuns,
        flaky_runs: spec.flakyRuns,
        success_rate: spec.successRate,
        last_status: spec.lastStatus,
        last_run_number: spec.lastRunNumber,
        last_run_at: spec.lastRunAt,
        last_failed_at: spec.lastFailedAt,
        failing_since: spec.failingSince,
        avg_duration_ms: spec.avgDurationMs,
        last_failure_author: spec.lastFailureAuthor,
        history: historyText(spec),
      });
      if (batch.length === INSERT_BATCH) {
        await db.insertInto('e2e_report_specs').values(batch).execute();
        batch = [];
      }
    }
  }
  if (batch.length > 0) await db.insertInto('e2e_report_specs').values(batch).execute();
}

/** A result as the spec's items show it. */
export interface ShownResult {
  runNumber: number;
  status: SpecResult['status'];
  at: string;
}

/** What a spec item says about why it fails. */
export type SpecWhy = Pick<
  SpecStat,
  | 'lastRunUrl'
  | 'lastFailedRunNumber'
  | 'lastFailedRunUrl'
  | 'firstFailedCommitSha'
  | 'lastPassedCommitSha'
  | 'lastError'
> & { history: ShownResult[] };

/** The largest epoch a Date holds (ECMAScript): anything beyond is not ours and cannot be shown. */
const MAX_DATE_MS = 8.64e15;

// A result is stored as [run number, status letter, epoch ms]: a third of the text of the object.
type StoredResult = [number, string, number];
const LETTERS = { passed: 'p', failed: 'f', flaky: 'k' } as const;
const STATUSES: Record<string, SpecResult['status']> = { p: 'passed', f: 'failed', k: 'flaky' };

function historyText(spec: SpecStat): string {
  const results: StoredResult[] = spec.history.map((result) => [
    result.runNumber,
    LETTERS[result.status],
    result.atMs,
  ]);
  return JSON.stringify({
    history: results,
    lastRunUrl: spec.lastRunUrl,
    lastFailedRunNumber: spec.lastFailedRunNumber,
    lastFailedRunUrl: spec.lastFailedRunUrl,
    firstFailedCommitSha: spec.firstFailedCommitSha,
    lastPassedCommitSha: spec.lastPassedCommitSha,
    lastError: spec.lastError,
  });
}

function shownResult(value: unknown): ShownResult[] {
  if (!Array.isArray(value)) return [];
  const [runNumber, letter, atMs] = value as unknown[];
  const status = typeof letter === 'string' ? STATUSES[letter] : undefined;
  const readable = typeof atMs === 'number' && Math.abs(atMs) <= MAX_DATE_MS;
  if (typeof runNumber !== 'number' || !readable || !status) return [];
  return [{ runNumber, status, at: new Date(atMs).toISOString() }];
}
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** The stored history; a report generated before it was kept (or unreadable text) has none. */
export function specWhyOf(text: string | null): SpecWhy {
  let stored: Partial<Record<keyof SpecWhy, unknown>> = {};
  try {
    const parsed: unknown = text === null ? null : JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) stored = parsed;
  } catch {
    // Not ours to fail a read over: the spec is shown without its history.
  }
  const error = stored.lastError as { message?: unknown } | null | undefined;
  return {
    history: Array.isArray(stored.history) ? stored.history.flatMap(shownResult) : [],
    lastRunUrl: textOrNull(stored.lastRunUrl),
    lastFailedRunNumber: typeof stored.lastFailedRunNumber === 'number' ? stored.lastFailedRunNumber : null,
    lastFailedRunUrl: textOrNull(stored.lastFailedRunUrl),
    firstFailedCommitSha: textOrNull(stored.firstFailedCommitSha),
    lastPassedCommitSha: textOrNull(stored.lastPassedCommitSha),
    lastError: typeof error?.message === 'string' ? { message: error.message } : null,
  };
}

export function toSpecStat(row: SpecRowStored): Omit<SpecStat, 'lastRunNumber' | 'history'> & SpecWhy {
  return {
    spec: row.spec,
    totalRuns: row.total_runs,
    failedRuns: row.failed_runs,
    flakyRuns: row.flaky_runs,
    successRate: Number(row.success_rate),
    lastStatus: row.last_status === 'failed' ? 'failed' : 'passed',
    lastRunAt: row.last_run_at,
    lastFailedAt: row.last_failed_at,
    failingSince: row.failing_since,
    avgDurationMs: row.avg_duration_ms,
    lastFailureAuthor: row.last_failure_author,
    ...specWhyOf(row.history),
  };
}

export interface SpecStatus {
  appId: number;
  spec: string;
  lastStatus: string;
  failingSince: string | null;
}

/** A failed test of an uploaded run: its message is cut to what a signature reads. */
export interface StoredFailure {
  id: number;
  spec: string;
  test: string;
  message: string;
  created_at: string;
}

/** A signature reads the first line of at most 2000 characters: the rest of a message stays put. */
const FAILURE_MESSAGE_PREFIX = 2000;

export function createSpecsRepository(db: Db) {
  return {
    /** One page of the failed tests of an app's runs uploaded in [fromIso, toIso), by id. */
    async failuresPage(
      appId: number,
      fromIso: string,
      toIso: string,
      afterId: number,
      limit: number,
    ): Promise<StoredFailure[]> {
      return db
        .selectFrom('test_result_failures as f')
        .innerJoin('test_result_uploads as u', 'u.id', 'f.upload_id')
        .select([
          'f.id',
          'f.spec',
          'f.test',
          sql<string>`substr(f.message, 1, ${FAILURE_MESSAGE_PREFIX})`.as('message'),
          'u.created_at',
        ])
        .where('u.app_id', '=', appId)
        .where('u.created_at', '>=', fromIso)
        .where('u.created_at', '<', toIso)
        .where('f.id', '>', afterId)
        .orderBy('f.id')
        .limit(limit)
        .execute();
    },

    /** One page of a detail's specs in their stored order, and how many there are. */
    async page(
      summaryId: number,
      appId: number,
      limit: number,
      offset: number,
    ): Promise<{ rows: SpecRowStored[]; total: number }> {
      if (!isStorableId(summaryId) || !isStorableId(appId)) return { rows: [], total: 0 };
      const detail = await db
        .selectFrom('e2e_report_details')
        .select('id')
        .where('report_summary_id', '=', summaryId)
        .where('app_id', '=', appId)
        .executeTakeFirst();
      if (!detail) return { rows: [], total: 0 };
      const query = db.selectFrom('e2e_report_specs').where('report_detail_id', '=', detail.id);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('position').limit(limit).offset(offset).execute(),
        query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: toCount(count.total) };
    },

    /** Every spec's last status in a summary (the comparison of two days). */
    async statusesOfSummary(summaryId: number): Promise<SpecStatus[]> {
      return db
        .selectFrom('e2e_report_specs as s')
        .innerJoin('e2e_report_details as d', 'd.id', 's.report_detail_id')
        .select([
          'd.app_id as appId',
          's.spec',
          's.last_status as lastStatus',
          's.failing_since as failingSince',
        ])
        .where('d.report_summary_id', '=', summaryId)
        .orderBy('d.app_id')
        .orderBy('s.position')
        .execute();
    },
  };
}

export type SpecsRepository = ReturnType<typeof createSpecsRepository>;
