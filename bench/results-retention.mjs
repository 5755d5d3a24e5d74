// Reads while the results-retention job purges (issue #36: deleting 2,500,000 results, reads p99
// <= 50 ms meanwhile). The real server (built) takes JUnit uploads of 5,000 passing tests run
// 200 days ago, then `POST /api/jobs/results-retention/run`; this process reads `GET /api/apps`
// one request after another until the job's run is over and reports their p99 and the run.
// `node bench/results-retention.mjs` after `npm run build`; BENCH_DB=postgres (a fresh database
// on 127.0.0.1:5432) and BENCH_RESULTS change it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  BENCH_KEY as KEY,
  createPostgresDatabase,
  dropPostgresDatabase,
  SERVICE_NODE_ARGS,
  serviceEnvironment,
  startProcess,
} from './lib.mjs';

const RESULTS = Number(process.env.BENCH_RESULTS ?? 2_500_000);
const POSTGRES = process.env.BENCH_DB === 'postgres';
const SPECS = 100;
const TESTS_PER_SPEC = 50;
const PER_UPLOAD = SPECS * TESTS_PER_SPEC;
const dir = mkdtempSync(join(tmpdir(), 'dashboard-retention-bench-'));
const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');
const pgName = `bench_retention_${process.pid}`;
const admin = 'postgres://postgres@127.0.0.1:5432/test';

function report() {
  let xml = '<?xml version="1.0"?>\n<testsuites name="jest tests">\n';
  for (let spec = 0; spec < SPECS; spec++) {
    xml += `<testsuite name="area ${spec}" file="src/area-${spec}/page.spec.ts">`;
    for (let test = 0; test < TESTS_PER_SPEC; test++) {
      xml += `<testcase classname="area ${spec}" name="area ${spec} renders state ${test}" time="0.0${test % 10}"/>`;
    }
    xml += '</testsuite>\n';
  }
  return `${xml}</testsuites>\n`;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

let url = `sqlite:${join(dir, 'retention.sqlite')}`;
if (POSTGRES) {
  await createPostgresDatabase(admin, pgName);
  url = `postgres://postgres@127.0.0.1:5432/${pgName}`;
}
const service = await startProcess([...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api'], {
  ...serviceEnvironment(join(dir, 'retention.sqlite')),
  DATABASE_URL: url,
  REPORT_REFRESH_DELAY_MS: '3600000',
});
const headers = { 'x-api-key': KEY };
const api = async (method, path, options = {}) => {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { ...headers, ...options.headers },
    body: options.body,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
};
try {
  await api('POST', '/api/apps', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'old',
      code: 'old',
      pipelineUrl: 'https://ci.example.com/p',
      watching: false,
    }),
  });
  const body = report();
  const uploads = Math.ceil(RESULTS / PER_UPLOAD);
  const old = new Date(Date.now() - 200 * 86_400_000).toISOString();
  for (let run = 1; run <= uploads; run++) {
    await api('POST', `/api/test_results?app=old&run=${run}&createdAt=${old}`, {
      headers: { 'content-type': 'application/xml' },
      body,
    });
  }
  const accepted = await api('POST', '/api/jobs/results-retention/run');
  const runId = accepted.data.id;
  const started = performance.now();
  const latencies = [];
  let finished = null;
  while (!finished) {
    const t0 = performance.now();
    await api('GET', '/api/apps');
    latencies.push(performance.now() - t0);
    if (latencies.length % 20 === 0) {
      const jobs = await api('GET', '/api/jobs');
      const job = jobs.data.find((entry) => entry.name === 'results-retention');
      if (job.lastRun && job.lastResult !== 'running' && job.lastRun >= accepted.data.startedAt)
        finished = job;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  process.stdout.write(
    [
      `Retention purge (${POSTGRES ? 'PostgreSQL' : 'SQLite'}): ${uploads * PER_UPLOAD} results in ${uploads} uploads, job run ${runId} ${finished.lastResult} in ${(finished.lastDurationMs / 1000).toFixed(1)} s (observed ${seconds.toFixed(1)} s)`,
      `  GET /api/apps meanwhile: ${latencies.length} reads, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms (target p99 <= 50: ${p99 <= 50 ? 'ok' : 'MISSED'})`,
      '',
    ].join('\n'),
  );
} finally {
  await service.stop();
  if (POSTGRES) await dropPostgresDatabase(admin, pgName);
  rmSync(dir, { recursive: true, force: true });
}
