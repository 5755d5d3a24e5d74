import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, toCount } from '../../db/errors.js';
import type { E2eReportSpecsTable } from '../../db/schema.js';
import type { SpecStat } from './spec-aggregation.js';

export type SpecRowStored = Selectable<E2eReportSpecsTable>;

/** 15 columns per row: 500 rows stay far below either database's bound-parameter limit. */
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
      });
      if (batch.length === INSERT_BATCH) {
        await db.insertInto('e2e_report_specs').values(batch).execute();
        batch = [];
      }
    }
  }
  if (batch.length > 0) await db.insertInto('e2e_report_specs').values(batch).execute();
}

export function toSpecStat(row: SpecRowStored): Omit<SpecStat, 'lastRunNumber' | 'quarantine'> {
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
  };
}

export interface SpecStatus {
  appId: number;
  spec: string;
  lastStatus: string;
  failingSince: string | null;
}

export function createSpecsRepository(db: Db) {
  return {
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
