// `npm run bench`: the real server (built, embedded default) over HTTP with autocannon at 50
// connections, each scenario beside a bare `node:http` server measured in the same run, plus the
// service's RSS idle and after the load. BENCH_DURATION (s per scenario), BENCH_CONNECTIONS,
// BENCH_PIPELINE=0 (skip the report-pipeline figures), BENCH_ENTRY (another build's cli.js,
// to measure a before/after pair in one run), BENCH_ONLY (a regular expression: only the
// scenarios whose names match, besides the ceiling) and BENCH_NODE_ARGS (node flags for the
// service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` to profile one scenario) change it.
// Each row also gets the ceiling measured again just before it (BENCH_ADJACENT seconds, 0 = off)
// and its ratio to that, which moves less than the ratio to the first ceiling on a busy machine.
// After the table come the ingestion of a large JUnit upload (bench/uploads.mjs) and the pull path
// of a large report (bench/pull-path.mjs, one pass), each in its own processes, and how soon a
// report shows an upload (bench/report-freshness.mjs); BENCH_UPLOADS=0, BENCH_FRESHNESS=0 and
// BENCH_PULL=0 skip them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  BENCH_KEY as KEY,
  CONNECTIONS,
  DURATION_S,
  measure,
  measureBesideCeiling,
  printTable,
  rssMiB,
  SERVICE_NODE_ARGS,
  serviceEnvironment,
  startProcess,
} from './lib.mjs';
import { BENCH_REPORT_DATE, seedReportDatabase } from './report-seed.mjs';

const APPS = 20;
const dir = mkdtempSync(join(tmpdir(), 'dashboard-bench-'));
const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function seedTodos(url) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${url}/api/to_do_list`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Item ${i} & <b>more</b>`,
        description: 'Bench item',
        dueDate: `2030-01-${String((i % 28) + 1).padStart(2, '0')}`,
      }),
    });
    if (res.status !== 201) throw new Error(`seeding to-dos failed: ${res.status}`);
  }
}

const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const selected = (name) => !only || only.test(name);

function startService(file, env = {}) {
  return startProcess([...SERVICE_NODE_ARGS, ...nodeArgs, entry, 'serve', '--roles', 'api'], {
    ...serviceEnvironment(file),
    CORS_ORIGINS: 'http://localhost',
    ...env,
  });
}

/** The ETag of a GET, or undefined when the service sends none (then the 304 row is skipped). */
async function etagOf(url, requestHeaders) {
  const res = await fetch(url, { headers: requestHeaders });
  await res.arrayBuffer();
  return res.headers.get('etag') ?? undefined;
}

process.stdout.write(
  `Benchmarks: ${DURATION_S}s per scenario, ${CONNECTIONS} connections, service ${entry}\n\n`,
);
const file = join(dir, 'bench.sqlite');
await seedReportDatabase(file, APPS);
const ceilingServer = await startProcess(['bench/hello-ceiling.mjs']);
const service = await startService(file);
const memory = {};
try {
  await seedTodos(service.url);
  await sleep(2000);
  memory.idle = rssMiB(service.pid);
  const ceiling = await measure('bare node:http (ceiling)', {
    url: ceilingServer.url,
    pid: ceilingServer.pid,
  });
  const pid = service.pid;
  const measureRow = measureBesideCeiling(ceilingServer);
  const reads = [
    ['GET /health', `${service.url}/health`, {}],
    [`GET /api/apps (${APPS} apps)`, `${service.url}/api/apps`, headers],
    ['GET /api/to_do_list?limit=100', `${service.url}/api/to_do_list?limit=100`, headers],
    [
      `GET /api/e2e_run_report (${APPS} apps, enriched)`,
      `${service.url}/api/e2e_run_report?date=${BENCH_REPORT_DATE}`,
      headers,
    ],
  ];
  const rows = [ceiling];
  for (const [name, url, requestHeaders] of reads)
    if (selected(name)) rows.push(await measureRow(name, { url, headers: requestHeaders, pid }));
  for (const [name, url, requestHeaders] of reads) {
    if (!selected(`${name} If-None-Match (304)`)) continue;
    const etag = await etagOf(url, requestHeaders);
    if (!etag) {
      rows.push({ name: `${name} If-None-Match (304)`, reqPerSec: 0, p50: '-', p99: '-', errors: 'no ETag' });
      continue;
    }
    rows.push(
      await measureRow(`${name} If-None-Match (304)`, {
        url,
        headers: { ...requestHeaders, 'if-none-match': etag },
        expectStatus: 304,
        pid,
      }),
    );
  }
  if (selected('POST /api/to_do_list'))
    rows.push(
      await measureRow('POST /api/to_do_list', {
        url: `${service.url}/api/to_do_list`,
        method: 'POST',
        headers,
        body: JSON.stringify({
          title: 'Bench <i>post</i> & co',
          description: 'x',
          link: 'https://example.com/a',
        }),
        pid,
      }),
    );
  memory.afterLoad = rssMiB(service.pid);
  await service.stop();

  // The same read with the rate limiter on (a limit high enough never to refuse the bench).
  const limitedName = `GET /api/apps (${APPS} apps), rate limiter on`;
  if (selected(limitedName)) {
    const limited = await startService(file, { RATE_LIMIT_MAX: '100000000' });
    try {
      rows.push(await measureRow(limitedName, { url: `${limited.url}/api/apps`, headers, pid: limited.pid }));
    } finally {
      await limited.stop();
    }
  }

  if (process.env.BENCH_PIPELINE !== '0' && !only) {
    const { runReportBenchmarks } = await import('./reports.mjs');
    rows.push(...(await runReportBenchmarks({ measure: measureRow, startProcess, key: KEY, dir })));
  }
  process.stdout.write('\n');
  printTable(rows, ceiling.reqPerSec);
  process.stdout.write(`\nservice RSS: ${memory.idle} MiB idle, ${memory.afterLoad} MiB after the load\n`);
} finally {
  await service.stop();
  await ceilingServer.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** Runs another bench script to its end with this process's output, so its lines follow the table. */
function runScript(script, env) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script], { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${script} exited with ${code}`))));
  });
}

if (!only && process.env.BENCH_UPLOADS !== '0') {
  process.stdout.write('\nupload ingestion (bench/uploads.mjs)\n');
  await runScript('bench/uploads.mjs', {});
}
if (!only && process.env.BENCH_FRESHNESS !== '0') {
  process.stdout.write('\nreports that follow uploads (bench/report-freshness.mjs)\n');
  await runScript('bench/report-freshness.mjs', {});
}
if (!only && process.env.BENCH_PULL !== '0') {
  process.stdout.write('\npull path of a large report (bench/pull-path.mjs)\n');
  await runScript('bench/pull-path.mjs', { PULL_PASSES: process.env.PULL_PASSES ?? '1' });
}
