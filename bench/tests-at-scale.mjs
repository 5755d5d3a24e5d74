// Per-test reads at scale (issue #36): with BENCH_TESTS (5,000) tests × BENCH_RUNS (2,000) runs of
// one app stored (10,000,000 results over BENCH_DAYS = 100 days, so a report's 14-day window holds
// about 1.4 million), the report of today is generated (target ≤ 2 s from request to ready), then
// the tests list of that report is read one request after another under several filters and pages
// (target p99 ≤ 50 ms), then the test pages of different tests (target p99 ≤ 50 ms). Every URL is
// asked once, so no answer comes from the response cache. The data is written straight into the
// database (bench/tests-scale-data.mjs, through the built server's packing), after the built
// server has created the schema and the app. `npm run bench:tests-scale`; BENCH_DB=postgres uses a
// fresh database on 127.0.0.1:5432; BENCH_KEEP=<dir> keeps (and reuses) the SQLite file there, or the
// PostgreSQL database bench_tests_scale_kept.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { join, resolve } from 'node:path';
import { testIdOf } from '../dist/src/modules/tests/test-identity.js';
import {
  BENCH_KEY as KEY,
  createPostgresDatabase,
  dropPostgresDatabase,
  SERVICE_NODE_ARGS,
  serviceEnvironment,
  startProcess,
} from './lib.mjs';
import { generate } from './tests-scale-data.mjs';
import { forgetWindows, openSink, postgresAppId, postgresDatabaseExists } from './tests-scale-sinks.mjs';

const TESTS = Number(process.env.BENCH_TESTS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const DAYS = Number(process.env.BENCH_DAYS ?? 100);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const POSTGRES = process.env.BENCH_DB === 'postgres';
const keep = process.env.BENCH_KEEP;
const dir = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), 'dashboard-tests-scale-'));
if (keep) mkdirSync(dir, { recursive: true });
const file = join(dir, 'tests-scale.sqlite');
const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');
const admin = 'postgres://postgres@127.0.0.1:5432/test';
const pgName = keep ? 'bench_tests_scale_kept' : `bench_tests_scale_${process.pid}`;
const url = POSTGRES ? `postgres://postgres@127.0.0.1:5432/${pgName}` : `sqlite:${file}`;
const reuse =
  keep !== undefined && (POSTGRES ? await postgresDatabaseExists(admin, pgName) : existsSync(file));

const environment = {
  ...serviceEnvironment(file),
  DATABASE_URL: url,
  // Neither the retention job nor a refresh may change the data while it is measured.
  RESULTS_RETENTION_DAYS: '36500',
  REPORT_REFRESH_DELAY_MS: '3600000',
};
const start = () =>
  startProcess([...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api,worker'], environment);

async function call(base, path, init = {}) {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'x-api-key': KEY, ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const verdict = (ok) => (ok ? 'ok' : 'MISSED');
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Creates the schema and the app with the built server, then writes the data beside it. */
async function populate() {
  if (reuse && POSTGRES) return postgresAppId(url, 'scale');
  if (reuse) {
    const db = new Database(file, { readonly: true });
    const { id } = db.prepare("SELECT id FROM apps WHERE code = 'scale'").get();
    db.close();
    return id;
  }
  if (POSTGRES) await createPostgresDatabase(admin, pgName);
  const service = await start();
  let appId;
  try {
    const created = await call(service.url, '/api/apps', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'scale',
        code: 'scale',
        pipelineUrl: 'https://ci.example.com/p',
        watching: true,
      }),
    });
    if (created.status !== 201) throw new Error(`app: ${created.status} ${created.text}`);
    appId = created.json().data.id;
  } finally {
    await service.stop();
  }
  const sink = await openSink(url);
  const started = performance.now();
  let made;
  let size;
  try {
    made = await generate({ appId, tests: TESTS, runs: RUNS, days: DAYS }, sink);
    if (POSTGRES) size = await sink.bytes();
  } finally {
    await sink.close();
  }
  const seconds = (performance.now() - started) / 1000;
  size ??= statSync(file).size;
  process.stdout.write(
    `Generated (${POSTGRES ? 'PostgreSQL' : 'SQLite'}): ${made.results} results (${made.identities} tests in ${made.specs} specs × ${RUNS} runs over ${DAYS} days, ~${Math.round((made.results * 15) / DAYS / 1e3) / 1e3} M in a report's 15-day window), ${made.failures} failures, in ${seconds.toFixed(1)} s; database ${(size / 1e6).toFixed(0)} MB\n`,
  );
  return appId;
}

/** Asks for today's report to be regenerated and waits until it is ready: ms from request to ready. */
async function generateToday(base) {
  const date = new Date().toISOString().slice(0, 10);
  const started = performance.now();
  let answer = await call(base, `/api/e2e_run_report?date=${date}&force=true`);
  while (answer.status === 202) {
    await sleep(20);
    answer = await call(base, `/api/e2e_run_report?date=${date}`);
  }
  if (answer.status !== 200 || answer.json().summary.status !== 'ready') {
    throw new Error(`report of ${date}: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  return { ms: performance.now() - started, summaryId: answer.json().summary.id };
}

/** Reads each path once, one after another; answers the latencies in ms. */
async function timeReads(base, paths) {
  const latencies = [];
  for (const path of paths) {
    const t0 = performance.now();
    const answer = await call(base, path);
    latencies.push(performance.now() - t0);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  return latencies;
}

function listPaths(summaryId, appId) {
  const base = `/api/e2e_run_report/${summaryId}/${appId}/tests`;
  const shapes = [
    (i) => `?limit=50&offset=${(i * 50) % TESTS}`,
    (i) => `?status=all&limit=100&offset=${(i * 100) % TESTS}&n=${i}`,
    (i) => `?status=failing&limit=50&n=${i}`,
    (i) => `?status=flaky&limit=20&offset=${i % 40}`,
    (i) => `?status=skipped&limit=50&n=${i}`,
    (i) => `?spec=src/area-${i % Math.ceil(TESTS / 50)}/page.spec.ts&limit=50`,
    (i) => `?search=state ${i % 50}&limit=50&n=${i}`,
    (i) => `?status=all&search=area ${i % 10}&limit=25&offset=${i % 50}`,
  ];
  return Array.from({ length: REQUESTS }, (_, i) => `${base}${shapes[i % shapes.length](i)}`);
}

function pagePaths(appId) {
  return Array.from({ length: REQUESTS }, (_, i) => {
    const test = (i * 7919) % TESTS;
    const parts = {
      spec: `src/area-${Math.floor(test / 50)}/page.spec.ts`,
      title: `area ${Math.floor(test / 50)} › renders state ${test % 50}`,
      project: '',
    };
    const paging = i % 4 === 0 ? '' : `?limit=${[20, 50, 100][i % 3]}&offset=${(i * 37) % RUNS}`;
    return `/api/apps/${appId}/tests/${testIdOf(appId, parts)}${paging}`;
  });
}

const figures = (values) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

try {
  const appId = await populate();
  const service = await start();
  try {
    const generations = [];
    let summaryId;
    for (let round = 0; round < 3; round++) {
      await forgetWindows(url);
      const generated = await generateToday(service.url);
      generations.push(generated.ms);
      summaryId = generated.summaryId;
    }
    const generation = percentile(generations, 50);
    const first = await timeReads(service.url, [`/api/e2e_run_report/${summaryId}/${appId}/tests?first=1`]);
    const list = await timeReads(service.url, listPaths(summaryId, appId));
    const pages = await timeReads(service.url, pagePaths(appId));
    const lines = [
      `Tests at scale (${POSTGRES ? 'PostgreSQL' : 'SQLite'}, ${TESTS} tests × ${RUNS} runs):`,
      `  report generation of today (the tests' figures worked out anew each time): ${generations.map((ms) => (ms / 1000).toFixed(2)).join(' / ')} s, median ${(generation / 1000).toFixed(2)} s (target <= 2 s: ${verdict(generation <= 2000)})`,
      `  first tests list read after it: ${first[0].toFixed(1)} ms`,
      `  tests list, ${list.length} reads: ${figures(list)} (target p99 <= 50: ${verdict(percentile(list, 99) <= 50)})`,
      `  test page, ${pages.length} reads: ${figures(pages)} (target p99 <= 50: ${verdict(percentile(pages, 99) <= 50)})`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await service.stop();
  }
} finally {
  if (POSTGRES && !keep) await dropPostgresDatabase(admin, pgName);
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
