// Reports that follow uploads: the real server (built, embedded SQLite, API and worker in one
// process) with a ready report for today. Each round uploads a JUnit file of 10,000 test cases for
// a new run and reads GET /api/e2e_run_report?date=<today> until the report shows that run; the
// figure is the time from the upload's 201 to that answer (target: p95 at most 5 s). Then 20
// uploads of one app within 10 s, counting the regenerations of today's report they cause
// (target: at most 3). Run after `npm run build`: `node bench/report-freshness.mjs`
// (BENCH_FRESH_ROUNDS, BENCH_FRESH_CASES change it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_KEY as KEY, SERVICE_NODE_ARGS, serviceEnvironment, startProcess } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_FRESH_ROUNDS ?? 20);
const CASES = Number(process.env.BENCH_FRESH_CASES ?? 10_000);
const CASES_PER_SPEC = 100;
const BURST = 20;
const BURST_SECONDS = 10;
const dir = mkdtempSync(join(tmpdir(), 'dashboard-freshness-bench-'));
const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const today = () => new Date().toISOString().slice(0, 10);

/** A mocha-junit-reporter-like file of `cases` test cases, one failing per spec in odd runs. */
function report(run, cases) {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="Mocha Tests">\n'];
  for (let spec = 0; spec < cases / CASES_PER_SPEC; spec++) {
    parts.push(
      `<testsuite name="area ${spec}" file="cypress/e2e/area-${spec}.cy.ts" tests="${CASES_PER_SPEC}">\n`,
    );
    for (let test = 0; test < CASES_PER_SPEC; test++) {
      const failure =
        run % 2 === 1 && test === 7
          ? `<failure message="expected run ${run} to pass">AssertionError: expected run ${run} to pass</failure>`
          : '';
      parts.push(
        `<testcase name="area ${spec} case ${test}" classname="case ${test}" time="0.01">${failure}</testcase>\n`,
      );
    }
    parts.push('</testsuite>\n');
  }
  parts.push('</testsuites>\n');
  return parts.join('');
}

async function call(url, path, init = {}) {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { 'x-api-key': KEY, ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

async function upload(url, code, run, body) {
  const answer = await call(url, `/api/test_results?app=${code}&run=${run}`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body,
  });
  if (answer.status !== 201) throw new Error(`upload of run ${run}: ${answer.status} ${answer.text}`);
  return performance.now();
}

/** Reads today's report until its detail for the app names `run` as the last run. */
async function waitForRun(url, appId, run, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await call(url, `/api/e2e_run_report?date=${today()}`);
    if (answer.status === 200) {
      const detail = answer.json().details?.find((item) => item.appId === appId);
      if (detail?.lastRunNumber === run) return performance.now();
    }
    if (performance.now() > deadline) throw new Error(`run ${run} not in the report after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Regenerations that ended ready, from the process's own counter. */
async function regenerations(url) {
  const answer = await call(url, '/metrics');
  const line = answer.text
    .split('\n')
    .find((text) => text.startsWith('dashboard_reports_processed_total{outcome="ready"}'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const service = await startProcess([...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api,worker'], {
  ...serviceEnvironment(join(dir, 'bench.sqlite')),
});
try {
  const created = await call(service.url, '/api/apps', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'fresh',
      code: 'fresh',
      pipelineUrl: 'https://ci.example.com/p',
      watching: true,
    }),
  });
  const appId = created.json().data.id;
  let run = 1;
  await upload(service.url, 'fresh', run, report(run, CASES));
  await waitForRun(service.url, appId, run);

  const latencies = [];
  for (let round = 0; round < ROUNDS; round++) {
    run += 1;
    const body = report(run, CASES);
    const accepted = await upload(service.url, 'fresh', run, body);
    latencies.push((await waitForRun(service.url, appId, run)) - accepted);
  }

  await sleep(1000);
  const before = await regenerations(service.url);
  const burstStart = performance.now();
  for (let i = 0; i < BURST; i++) {
    run += 1;
    await upload(service.url, 'fresh', run, report(run, 200));
    const next = burstStart + ((i + 1) * BURST_SECONDS * 1000) / BURST;
    await sleep(Math.max(0, next - performance.now()));
  }
  await waitForRun(service.url, appId, run);
  await sleep(8000);
  const burstRegenerations = (await regenerations(service.url)) - before;

  const p95 = percentile(latencies, 95) / 1000;
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  process.stdout.write(
    [
      `Report freshness: ${ROUNDS} uploads of ${CASES} test cases, each read back from today's report`,
      `  201 → visible in GET /api/e2e_run_report: p50 ${(percentile(latencies, 50) / 1000).toFixed(2)} s, p95 ${p95.toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s (target p95 <= 5: ${verdict(p95 <= 5)})`,
      `  ${BURST} uploads in ${BURST_SECONDS} s: ${burstRegenerations} regenerations of the report (target <= 3: ${verdict(burstRegenerations <= 3)})`,
      '',
    ].join('\n'),
  );
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
