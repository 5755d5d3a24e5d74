// Report pipeline benchmarks, called by bench/run.mjs on the built code (dist/):
//   1. aggregation throughput (rows/s) of the pure fold (per-app runs and per-spec statistics),
//      in memory;
//   2. a generated answer of BENCH_REPORT_MB (default 200) MB streamed from the fake Cypress
//      server (its own process) into the real client + aggregator (another process): peak RSS,
//      MB/s and rows/s;
//   3. GET /api/e2e_run_report on a ready report of 50 apps with every enrichment, req/s;
//   4. GET /api/e2e_run_report/:summaryId/:appId/specs of a 500-spec app at 10 connections.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVICE_NODE_ARGS } from './lib.mjs';

const DIST = new URL('../dist/src/', import.meta.url);
const dist = (path) => new URL(path, DIST).href;
const REPORT_DATE = '2025-03-15';
const APPS = 50;

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

async function aggregationThroughput() {
  const { createAggregator } = await import(dist('modules/reports/aggregation.js'));
  const apps = Array.from({ length: APPS }, (_, i) => ({ id: i + 1, name: `app-${i}` }));
  const count = Number(process.env.BENCH_AGGREGATION_ROWS ?? 1_000_000);
  // Rows as the client yields them: parsed from JSON, so their strings are flat (template
  // strings would be ropes that every read of a field has to flatten first).
  const rows = Array.from({ length: count }, (_, i) => JSON.parse(JSON.stringify(sampleRow(i))));
  const aggregator = createAggregator(apps, REPORT_DATE);
  const started = process.hrtime.bigint();
  for (const row of rows) aggregator.add(row);
  const result = aggregator.finish();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rows: count, seconds, rowsPerSecond: Math.round(count / seconds), runs: result.totals.totalRuns };
}

/** Runs an ES module script in a child process; resolves with its stdout lines. */
function runScript(source, env = {}) {
  return spawn(process.execPath, ['--input-type=module', '-e', source], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const FAKE_SERVER_SCRIPT = `
import { startFakeCypress } from ${JSON.stringify(new URL('../test/fakes/fake-cypress.ts', import.meta.url).href)};
const APPS = ${APPS};
const sampleRow = ${sampleRow.toString()};
const targetBytes = Number(process.env.TARGET_MB) * 1024 * 1024;
const rowBytes = JSON.stringify(sampleRow(123456)).length + 1;
const count = Math.ceil(targetBytes / rowBytes);
const fake = await startFakeCypress();
fake.rowSource = function* () { for (let i = 0; i < count; i += 1) yield sampleRow(i); };
process.stdout.write('READY ' + fake.url + ' ' + count + '\\n');
`;

const STREAM_CLIENT_SCRIPT = `
import { createCypressClient } from ${JSON.stringify(dist('integrations/cypress/cypress-client.js'))};
import { createAggregator } from ${JSON.stringify(dist('modules/reports/aggregation.js'))};
const apps = Array.from({ length: ${APPS} }, (_, i) => ({ id: i + 1, name: 'app-' + i }));
let peak = process.memoryUsage().rss;
const baseline = peak;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
const client = createCypressClient({ baseUrl: process.env.FAKE_URL, timeoutMs: 60000 });
const aggregator = createAggregator(apps, '${REPORT_DATE}');
const started = process.hrtime.bigint();
for await (const row of client.specDetails({ startDate: '2025-03-01', endDate: '${REPORT_DATE}', projects: ['app-0'] })) aggregator.add(row);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(JSON.stringify({ seconds, rows: aggregator.rowsSeen, baselineRss: baseline, peakRss: peak, runs: aggregator.finish().totals.totalRuns }) + '\\n');
`;

async function streamedAnswer(startProcess, targetMb) {
  // The fake lives with the tests (outside the production build): tsx runs its source.
  const fake = await startProcess(['--import', 'tsx', '--input-type=module', '-e', FAKE_SERVER_SCRIPT], {
    TARGET_MB: String(targetMb),
  });
  try {
    const child = runScript(STREAM_CLIENT_SCRIPT, { FAKE_URL: fake.url });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`stream client exited with ${code}: ${output}`);
    const result = JSON.parse(output.trim().split('\n').pop());
    return { ...result, megabytes: targetMb, mbPerSecond: targetMb / result.seconds };
  } finally {
    await fake.stop();
  }
}

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
async function seedSpecs(file, count = 500) {
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

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Called by bench/run.mjs; prints the pipeline figures and returns the HTTP rows for its table. */
export const BENCH_REPORT_DATE = REPORT_DATE;

export async function runReportBenchmarks({ measure, startProcess, key, dir }) {
  const aggregation = await aggregationThroughput();
  process.stdout.write(
    `report aggregation (pure fold): ${aggregation.rows} rows in ${aggregation.seconds.toFixed(2)} s = ` +
      `${aggregation.rowsPerSecond.toLocaleString('en-US')} rows/s\n`,
  );

  const targetMb = Number(process.env.BENCH_REPORT_MB ?? 200);
  const streamed = await streamedAnswer(startProcess, targetMb);
  process.stdout.write(
    `report answer streamed from the fake (${targetMb} MB, ${streamed.rows.toLocaleString('en-US')} rows): ` +
      `${streamed.seconds.toFixed(1)} s, ${streamed.mbPerSecond.toFixed(1)} MB/s, ` +
      `${Math.round(streamed.rows / streamed.seconds).toLocaleString('en-US')} rows/s, ` +
      `RSS ${mb(streamed.baselineRss)} at start, peak ${mb(streamed.peakRss)}\n`,
  );

  const file = join(dir, 'reports-bench.sqlite');
  await seedReportDatabase(file);
  const specsPath = await seedSpecs(file);
  const service = await startProcess(
    [
      ...SERVICE_NODE_ARGS,
      new URL('../dist/src/cli.js', import.meta.url).pathname,
      'serve',
      '--roles',
      'api',
    ],
    {
      API_SECURITY_KEY: key,
      DATABASE_URL: `sqlite:${file}`,
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      CORS_ORIGINS: 'http://localhost',
    },
  );
  try {
    const url = `${service.url}/api/e2e_run_report?date=${REPORT_DATE}`;
    const check = await fetch(url, { headers: { 'x-api-key': key } });
    const body = await check.json();
    if (check.status !== 200 || body.details?.length !== APPS || !body.details[0].app?.manualRuns) {
      throw new Error(`the seeded report is not served as expected: ${check.status}`);
    }
    const specsUrl = `${service.url}${specsPath}`;
    const specsCheck = await fetch(specsUrl, { headers: { 'x-api-key': key } });
    const specsBody = await specsCheck.json();
    if (specsCheck.status !== 200 || specsBody.data?.length !== 100 || specsBody.pagination?.total !== 500) {
      throw new Error(`the seeded specs are not served as expected: ${specsCheck.status}`);
    }
    return [
      await measure(`GET /api/e2e_run_report (ready, ${APPS} apps, all enrichments)`, {
        url,
        headers: { 'x-api-key': key },
      }),
      // The target: p99 under 20 ms at 10 connections.
      await measure('GET …/:summaryId/:appId/specs?limit=100 (500-spec app, 10 connections)', {
        url: specsUrl,
        headers: { 'x-api-key': key },
        connections: 10,
      }),
    ];
  } finally {
    await service.stop();
  }
}

// `node bench/reports.mjs` on its own (after `npm run build`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { measure, printTable, startProcess } = await import('./lib.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'reports-bench-'));
  try {
    const rows = await runReportBenchmarks({
      measure,
      startProcess,
      key: 'bench-key-0123456789abcdefghijklmnop',
      dir,
    });
    printTable(rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
