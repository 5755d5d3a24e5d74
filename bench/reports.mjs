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
import {
  BENCH_APPS as APPS,
  BENCH_REPORT_DATE as REPORT_DATE,
  sampleRow,
  seedReportDatabase,
  seedSpecs,
} from './report-seed.mjs';

const DIST = new URL('../dist/src/', import.meta.url);
const dist = (path) => new URL(path, DIST).href;

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

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Called by bench/run.mjs; prints the pipeline figures and returns the HTTP rows for its table. */
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
