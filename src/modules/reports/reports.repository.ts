import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, toCount, toDbBoolean } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { nowIso, todayUtc } from '../../shared/time.js';
import type { Aggregate } from './aggregation.js';
import type { DetailRow, DetailWithApp, ManualRunRow, SummaryFilter, SummaryRow } from './report-rows.js';
import { createReportStateRepository } from './report-state.repository.js';
import { createSpecsRepository, insertSpecs } from './specs.repository.js';

/**
 * A summary whose row holds the figures of a ready version: the ready ones, and the pending or
 * failed ones that were ready before (rows from before `ready_at` existed were migrated).
 */
const hasReadyVersion = (eb: ExpressionBuilder<Database, 'e2e_report_summaries'>) =>
  eb.or([eb('status', '=', 'ready'), eb('ready_at', 'is not', null)]);

export function createReportsRepository(db: Db) {
  async function findSummaryByDate(date: string): Promise<SummaryRow | undefined> {
    return db.selectFrom('e2e_report_summaries').selectAll().where('date', '=', date).executeTakeFirst();
  }

  async function listDetails(summaryId: number): Promise<DetailWithApp[]> {
    return db
      .selectFrom('e2e_report_details as d')
      .innerJoin('apps as a', 'a.id', 'd.app_id')
      .selectAll('d')
      .select('a.name as app_name')
      .where('d.report_summary_id', '=', summaryId)
      .orderBy('a.name')
      .orderBy('a.id')
      .execute();
  }

  return {
    /** The per-spec statistics stored with the details. */
    specs: createSpecsRepository(db),
    ...createReportStateRepository(db),
    findSummaryByDate,
    /** Details of a summary with their app's name, ordered by app name. */
    listDetails,

    async findSummaryById(id: number): Promise<SummaryRow | undefined> {
      if (!isStorableId(id)) return undefined;
      return db.selectFrom('e2e_report_summaries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * The date's summary becomes `ready` with its totals, and its details are replaced, in one
     * transaction: readers see the last ready version or this one, never a mix or nothing.
     */
    /**
     * Replaces the date's figures, details and specs. With `ready: false` the row stays `pending`
     * (the worker stores the alerts first, then calls `markReady`), so a reader who sees the report
     * ready also sees the notifications it raised.
     */
    async saveReport(
      date: string,
      aggregate: Aggregate,
      options: { ready?: boolean } = {},
    ): Promise<SummaryRow> {
      const ready = options.ready ?? true;
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const { totals } = aggregate;
        const day = (field: 'totalRuns' | 'passedRuns' | 'failedRuns') =>
          aggregate.details.reduce((sum, detail) => sum + detail.day[field], 0);
        const values = {
          status: ready ? 'ready' : 'pending',
          total_runs: totals.totalRuns,
          passed_runs: totals.passedRuns,
          failed_runs: totals.failedRuns,
          success_rate: totals.successRate,
          day_total_runs: day('totalRuns'),
          day_passed_runs: day('passedRuns'),
          day_failed_runs: day('failedRuns'),
          apps_without_runs: JSON.stringify(aggregate.appsWithoutRuns),
          updated_at: now,
          ...(ready
            ? { ready_at: now, attempt: null, next_attempt_at: null, last_error: null, queued_at: null }
            : {}),
        };
        let summary = await trx
          .updateTable('e2e_report_summaries')
          .set(values)
          .where('date', '=', date)
          .returningAll()
          .executeTakeFirst();
        summary ??= await trx
          .insertInto('e2e_report_summaries')
          .values({ ...values, date, created_at: now })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('e2e_report_details').where('report_summary_id', '=', summary.id).execute();
        // Apps deleted while the data was being fetched must not break the insert (foreign key).
        const appIds = aggregate.details.map((detail) => detail.appId);
        const existing = new Set(
          appIds.length === 0
            ? []
            : (await trx.selectFrom('apps').select('id').where('id', 'in', appIds).execute()).map(
                (r) => r.id,
              ),
        );
        const stored = aggregate.details.filter((detail) => existing.has(detail.appId));
        const rows = stored.map((detail) => ({
          report_summary_id: summary.id,
          app_id: detail.appId,
          total_runs: detail.totalRuns,
          passed_runs: detail.passedRuns,
          failed_runs: detail.failedRuns,
          flaky_runs: detail.flakyRuns,
          success_rate: detail.successRate,
          last_run_status: detail.lastRunStatus,
          last_run_number: detail.lastRunNumber,
          last_run_at: detail.lastRunAt,
          last_failed_run_at: detail.lastFailedRunAt,
          day_total_runs: detail.day.totalRuns,
          day_passed_runs: detail.day.passedRuns,
          day_failed_runs: detail.day.failedRuns,
          last_failure_author: detail.lastFailureAuthor,
          created_at: now,
        }));
        const detailIds = new Map<number, number>();
        for (let start = 0; start < rows.length; start += 200) {
          const inserted = await trx
            .insertInto('e2e_report_details')
            .values(rows.slice(start, start + 200))
            .returning(['id', 'app_id'])
            .execute();
          for (const { id, app_id } of inserted) detailIds.set(app_id, id);
        }
        await insertSpecs(
          trx,
          stored.map((detail) => ({ reportDetailId: detailIds.get(detail.appId)!, specs: detail.specs })),
        );
        return summary;
      });
    },

    /**
     * The date of the newest report up to today (UTC) that is ready or being generated, if any.
     * A report asked for a future date does not count: it would silence every real day.
     */
    async newestReportDate(): Promise<string | undefined> {
      const row = await db
        .selectFrom('e2e_report_summaries')
        .select('date')
        .where('status', 'in', ['ready', 'pending'])
        .where('date', '<=', todayUtc())
        .orderBy('date', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.date;
    },

    async listDetailsForDate(date: string): Promise<DetailWithApp[]> {
      const summary = await findSummaryByDate(date);
      return summary ? listDetails(summary.id) : [];
    },

    async findDetail(summaryId: number, appId: number): Promise<DetailRow | undefined> {
      if (!isStorableId(summaryId) || !isStorableId(appId)) return undefined;
      return db
        .selectFrom('e2e_report_details')
        .selectAll()
        .where('report_summary_id', '=', summaryId)
        .where('app_id', '=', appId)
        .executeTakeFirst();
    },

    async listSummaries(
      filter: SummaryFilter,
      limit: number,
      offset: number,
    ): Promise<{ rows: SummaryRow[]; total: number }> {
      let query = db.selectFrom('e2e_report_summaries');
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.from) query = query.where('date', '>=', filter.from);
      if (filter.to) query = query.where('date', '<=', filter.to);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('date', 'desc').limit(limit).offset(offset).execute(),
        query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: toCount(count.total) };
    },

    /** Summaries with a ready version between two dates, and that version's details (trends). */
    async readyBetween(
      from: string,
      to: string,
    ): Promise<{ summaries: SummaryRow[]; details: DetailWithApp[] }> {
      const summaries = await db
        .selectFrom('e2e_report_summaries')
        .selectAll()
        .where(hasReadyVersion)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .orderBy('date')
        .execute();
      const ids = summaries.map((summary) => summary.id);
      const details =
        ids.length === 0
          ? []
          : await db
              .selectFrom('e2e_report_details as d')
              .innerJoin('apps as a', 'a.id', 'd.app_id')
              .selectAll('d')
              .select('a.name as app_name')
              .where('d.report_summary_id', 'in', ids)
              .orderBy('a.name')
              .execute();
      return { summaries, details };
    },

    /** Pending summaries not touched since `before` (stale: their request was probably lost). */
    async stalePending(before: string): Promise<SummaryRow[]> {
      return db
        .selectFrom('e2e_report_summaries')
        .selectAll()
        .where('status', '=', 'pending')
        .where('updated_at', '<', before)
        .orderBy('date')
        .execute();
    },

    async markStale(id: number): Promise<void> {
      await db
        .updateTable('e2e_report_summaries')
        .set({ updated_at: new Date(0).toISOString() })
        .where('id', '=', id)
        .execute();
    },

    async touchSummary(id: number): Promise<void> {
      await db
        .updateTable('e2e_report_summaries')
        .set({ updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    },

    async watchedApps(): Promise<{ id: number; name: string }[]> {
      return db
        .selectFrom('apps')
        .select(['id', 'name'])
        .where('watching', '=', toDbBoolean(true))
        .orderBy('name')
        .orderBy('id')
        .execute();
    },

    async appExists(id: number): Promise<boolean> {
      if (!isStorableId(id)) return false;
      return (await db.selectFrom('apps').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    /** Manual runs of the apps created on the (UTC) date. */
    async manualRunsOn(appIds: readonly number[], date: string): Promise<ManualRunRow[]> {
      if (appIds.length === 0) return [];
      return db
        .selectFrom('e2e_manual_runs')
        .selectAll()
        .where('app_id', 'in', [...appIds])
        .where('created_at', '>=', `${date}T00:00:00.000Z`)
        .where('created_at', '<=', `${date}T23:59:59.999Z`)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
