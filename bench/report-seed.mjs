// The inputs of the report benchmarks, shared with bench/run.mjs, bench/freshness.mjs and
// bench/fold.mjs: generated Cypress spec rows, and a SQLite database holding a ready report.
const DIST = new URL('../dist/src/', import.meta.url);
const dist = (path) => new URL(path, DIST).href;
const REPORT_DATE = '2025-03-15';
const APPS = 50;

/** The date of the seeded ready report. */
export const BENCH_REPORT_DATE = REPORT_DATE;
/** Apps in the generated rows and, unless told otherwise, in the seeded report. */
export const BENCH_APPS = APPS;

// A run is 40 spec rows of one project; every 2000 rows each of the 50 apps has had one run.
// Each project has a catalogue of 500 specs, 40 of which a run executes (a real project has a
// bounded set of specs; per-spec statistics keep one entry per distinct spec).
export const sampleRow = (i) => ({
  project_name: `app-${Math.floor(i / 40) % APPS}`,
  run_number: Math.floor(i / 2000),
  created_at: `2025-03-${String(1 + (i % 15)).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00.000Z`,
  status: i % 17 === 0 ? 'failed' : i % 23 === 0 ? 'noTests' : 'passed',
  spec: `cypress/e2e/feature-${(Math.floor(i / 2000) * 40 + (i % 40)) % 500}/scenario.cy.ts`,
  total_tests: 12,
  pass_tests: 11,
  fail_tests: i % 17 === 0 ? 1 : 0,
  flaky_tests: i % 31 === 0 ? 1 : 0,
  spec_duration: 1000 + (i % 9000),
  commit_author_name: `Author ${Math.floor(i / 2000) % 7}`,
  commit_branch: 'main',
});

/** A SQLite database with `apps` apps, a ready report of the date with their details, and manual runs. */
export async function seedReportDatabase(file, appCount = APPS) {
  const { openDatabase, migrateToLatest } = await import(dist('db/database.js'));
  const database = openDatabase({ dialect: 'sqlite', filename: file });
  await migrateToLatest(database.db);
  const now = new Date().toISOString();
  const apps = await database.db
    .insertInto('apps')
    .values(
      Array.from({ length: appCount }, (_, i) => ({
        name: `App ${String(i).padStart(2, '0')}`,
        code: `app-${i}`,
        pipeline_url: `https://app.circleci.com/pipelines/github/acme/app-${i}`,
        watching: 1,
        e2e_trigger_configuration: JSON.stringify({ enabled: true, schedule: '0 6 * * *' }),
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  const summary = await database.db
    .insertInto('e2e_report_summaries')
    .values({
      date: REPORT_DATE,
      status: 'ready',
      total_runs: appCount * 20,
      passed_runs: appCount * 18,
      failed_runs: appCount * 2,
      success_rate: 0.9,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await database.db
    .insertInto('e2e_report_details')
    .values(
      apps.map(({ id }) => ({
        report_summary_id: summary.id,
        app_id: id,
        total_runs: 20,
        passed_runs: 18,
        failed_runs: 2,
        flaky_runs: 1,
        success_rate: 0.9,
        last_run_status: 'passed',
        last_run_number: 120,
        last_run_at: `${REPORT_DATE}T09:00:00.000Z`,
        last_failed_run_at: `${REPORT_DATE}T07:00:00.000Z`,
        created_at: now,
      })),
    )
    .execute();
  await database.db
    .insertInto('e2e_manual_runs')
    .values(
      apps.flatMap(({ id }) =>
        [1, 2].map((n) => ({
          app_id: id,
          pipeline_id: `pipeline-${id}-${n}`,
          pipeline_number: n,
          status: 'success',
          url: `https://app.circleci.com/pipelines/github/acme/app/${n}`,
          created_at: `${REPORT_DATE}T0${n}:00:00.000Z`,
          updated_at: `${REPORT_DATE}T0${n}:00:00.000Z`,
        })),
      ),
    )
    .execute();
  await database.close();
}

/** 500 spec rows for the first app's detail of the seeded report; returns the specs URL path. */
export async function seedSpecs(file, count = 500) {
  const { openDatabase } = await import(dist('db/database.js'));
  const database = openDatabase({ dialect: 'sqlite', filename: file });
  try {
    const detail = await database.db
      .selectFrom('e2e_report_details')
      .select(['id', 'report_summary_id', 'app_id'])
      .orderBy('app_id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: count }, (_, i) => ({
      report_detail_id: detail.id,
      position: i,
      spec: `cypress/e2e/area-${i % 25}/spec-${i}.cy.ts`,
      total_runs: 20,
      failed_runs: i < 20 ? 20 - i : 0,
      flaky_runs: i % 7 === 0 ? 2 : 0,
      success_rate: i < 20 ? i / 20 : 1,
      last_status: i < 20 ? 'failed' : 'passed',
      last_run_number: 120,
      last_run_at: `${REPORT_DATE}T09:00:00.000Z`,
      last_failed_at: i < 20 ? `${REPORT_DATE}T09:00:00.000Z` : null,
      failing_since: i < 20 ? `2025-03-1${i % 5}T08:00:00.000Z` : null,
      avg_duration_ms: 1000 + i * 13,
      last_failure_author: i < 20 ? 'Ada Lovelace' : null,
    }));
    for (let start = 0; start < rows.length; start += 250) {
      await database.db
        .insertInto('e2e_report_specs')
        .values(rows.slice(start, start + 250))
        .execute();
    }
    return `/api/e2e_run_report/${detail.report_summary_id}/${detail.app_id}/specs?limit=100`;
  } finally {
    await database.close();
  }
}
