import type { Db } from '../../db/database.js';
import { toCount } from '../../db/errors.js';

/** An application's newest uploaded run (the highest run number) and that run's newest file. */
export interface LatestUpload {
  appId: number;
  appName: string;
  appCode: string;
  runNumber: number;
  format: string;
  /** When the run ran (as the report reads it). */
  createdAt: string;
  /** When its newest file arrived. */
  uploadedAt: string;
}

const countsByApp = (rows: readonly { app_id: number; runs: string | number | bigint }[]) =>
  new Map(rows.map((row) => [row.app_id, toCount(row.runs)]));

/**
 * Where each application's results come from and how many runs a day brought: the uploads, the
 * manual runs and the figures of a report, read for the Applications page and the status page.
 */
export function createAppSourcesRepository(db: Db) {
  return {
    /** Every application's id, in order. */
    async appIds(): Promise<number[]> {
      return (await db.selectFrom('apps').select('id').orderBy('id').execute()).map((row) => row.id);
    },

    /**
     * Every application that ever uploaded, with its newest run. The run is found by run number
     * through the `(app_id, run_number, …)` index, one seek per application, so the cost does not
     * grow with the number of uploads kept.
     */
    async latestUploads(): Promise<LatestUpload[]> {
      const rows = await db
        .selectFrom('apps as a')
        .innerJoin('test_result_uploads as u', (join) =>
          join
            .onRef('u.app_id', '=', 'a.id')
            .on('u.id', '=', (eb) =>
              eb
                .selectFrom('test_result_uploads as latest')
                .select('latest.id')
                .whereRef('latest.app_id', '=', 'a.id')
                .orderBy('latest.run_number', 'desc')
                .orderBy('latest.id', 'desc')
                .limit(1),
            ),
        )
        .select([
          'a.id as app_id',
          'a.name',
          'a.code',
          'u.run_number',
          'u.format',
          'u.created_at',
          'u.uploaded_at',
        ])
        .orderBy('u.uploaded_at', 'desc')
        .orderBy('a.id')
        .execute();
      return rows.map((row) => ({
        appId: row.app_id,
        appName: row.name,
        appCode: row.code,
        runNumber: row.run_number,
        format: row.format,
        createdAt: row.created_at,
        uploadedAt: row.uploaded_at,
      }));
    },

    /** Distinct uploaded run numbers per application among runs that ran in [fromIso, toIso). */
    async uploadedRunsBetween(fromIso: string, toIso: string): Promise<Map<number, number>> {
      const rows = await db
        .selectFrom('test_result_uploads')
        .select((eb) => ['app_id', eb.fn.count<string | number>('run_number').distinct().as('runs')])
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .groupBy('app_id')
        .execute();
      return countsByApp(rows);
    },

    /** Manual runs per application of `appIds` started in [fromIso, toIso) (read by `(app_id, created_at)`). */
    async manualRunsBetween(
      appIds: readonly number[],
      fromIso: string,
      toIso: string,
    ): Promise<Map<number, number>> {
      if (appIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('e2e_manual_runs')
        .select((eb) => ['app_id', eb.fn.countAll<string | number>().as('runs')])
        .where('app_id', 'in', [...appIds])
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .groupBy('app_id')
        .execute();
      return countsByApp(rows);
    },

    /**
     * The runs of the report date per application in the report of `date`, or undefined while that
     * date has no ready version (a regeneration keeps the details of the last ready one).
     */
    async reportDayRuns(date: string): Promise<Map<number, number> | undefined> {
      const summary = await db
        .selectFrom('e2e_report_summaries')
        .select(['id', 'status', 'ready_at'])
        .where('date', '=', date)
        .executeTakeFirst();
      if (!summary || (summary.status !== 'ready' && summary.ready_at === null)) return undefined;
      const rows = await db
        .selectFrom('e2e_report_details')
        .select(['app_id', 'day_total_runs as runs'])
        .where('report_summary_id', '=', summary.id)
        .execute();
      return countsByApp(rows);
    },
  };
}

export type AppSourcesRepository = ReturnType<typeof createAppSourcesRepository>;
