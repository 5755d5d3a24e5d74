import type { Db } from '../../../src/db/database.js';

export interface SpecRow {
  spec: string;
  lastStatus: 'passed' | 'failed';
}

/**
 * Stores a report for `date` holding, for `appId`, the given specs (straight into the tables, as
 * the report worker leaves them), so lookups can be tested without generating a report.
 */
export async function storeReport(
  db: Db,
  options: { date: string; appId: number; status?: string; specs: SpecRow[] },
): Promise<number> {
  const now = new Date().toISOString();
  const failed = options.specs.some((spec) => spec.lastStatus === 'failed');
  const summary = await db
    .insertInto('e2e_report_summaries')
    .values({
      date: options.date,
      status: options.status ?? 'ready',
      total_runs: 1,
      passed_runs: failed ? 0 : 1,
      failed_runs: failed ? 1 : 0,
      success_rate: failed ? 0 : 100,
      apps_without_runs: '[]',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const detail = await db
    .insertInto('e2e_report_details')
    .values({
      report_summary_id: summary.id,
      app_id: options.appId,
      total_runs: 1,
      passed_runs: failed ? 0 : 1,
      failed_runs: failed ? 1 : 0,
      flaky_runs: 0,
      success_rate: failed ? 0 : 100,
      last_run_status: failed ? 'failed' : 'passed',
      last_run_number: 7,
      last_run_at: now,
      last_failed_run_at: failed ? now : null,
      last_failure_author: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let position = 0;
  for (const spec of options.specs) {
    await db
      .insertInto('e2e_report_specs')
      .values({
        report_detail_id: detail.id,
        position: position++,
        spec: spec.spec,
        total_runs: 1,
        failed_runs: spec.lastStatus === 'failed' ? 1 : 0,
        flaky_runs: 0,
        success_rate: spec.lastStatus === 'failed' ? 0 : 100,
        last_status: spec.lastStatus,
        last_run_number: 7,
        last_run_at: now,
        last_failed_at: spec.lastStatus === 'failed' ? now : null,
        failing_since: spec.lastStatus === 'failed' ? now : null,
        avg_duration_ms: 1000,
        last_failure_author: null,
      })
      .execute();
  }
  return summary.id;
}
