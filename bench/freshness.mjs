// What an open report page costs the server while it waits for a newer version (issue #33): the
// web UI asks for the date's summary every 10 s with its ETag. Run after `npm run build`:
// `node bench/freshness.mjs` (BENCH_DURATION, BENCH_CONNECTIONS as in bench/run.mjs).
//
// Rows, each with the server's CPU time per request:
//   - the poll while nothing changed: GET /api/e2e_reports/:date with If-None-Match, a 304 from the
//     response cache;
//   - the poll right after a write (a new upload, a regenerated report): the same with the response
//     cache off, so every request reads the database and serialises the summary;
//   - for comparison, what the Overview polled before (every 30 s): the whole enriched report of
//     the date, revalidated and read afresh;
//   - the Applications page's "Runs today" (GET /api/apps/runs_today), revalidated and read afresh.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  BENCH_KEY as KEY,
  CONNECTIONS,
  DURATION_S,
  measure,
  printTable,
  SERVICE_NODE_ARGS,
  serviceEnvironment,
  startProcess,
} from './lib.mjs';
import { BENCH_REPORT_DATE as DATE, seedReportDatabase } from './report-seed.mjs';

const APPS = 20;
const headers = { 'x-api-key': KEY };
const entry = resolve('dist/src/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'dashboard-freshness-'));
const file = join(dir, 'bench.sqlite');

const start = (env = {}) =>
  startProcess([...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api'], {
    ...serviceEnvironment(file),
    ...env,
  });

/** A short unmeasured run first, so the row measures the optimised code, not the first calls. */
const warmUp = (url, extra = {}) =>
  measure('warm-up', { url, headers: { ...headers, ...extra }, duration: 2 });

async function etagOf(url) {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { etag: res.headers.get('etag'), bytes: Number(res.headers.get('content-length') ?? 0) };
}

const READS = [
  ['poll: GET /api/e2e_reports/:date', `/api/e2e_reports/${DATE}`],
  [`before: GET /api/e2e_run_report (${APPS} apps, enriched)`, `/api/e2e_run_report?date=${DATE}`],
  ['GET /api/apps/runs_today', '/api/apps/runs_today'],
];

process.stdout.write(`Freshness polls: ${DURATION_S}s per row, ${CONNECTIONS} connections\n\n`);
await seedReportDatabase(file, APPS);
const rows = [];
try {
  const cached = await start();
  try {
    for (const [name, path] of READS) {
      const url = `${cached.url}${path}`;
      const { etag, bytes } = await etagOf(url);
      process.stdout.write(`${name}: ${bytes} bytes when it changed\n`);
      await warmUp(url, { 'if-none-match': etag });
      rows.push(
        await measure(`${name}, If-None-Match (304)`, {
          url,
          headers: { ...headers, 'if-none-match': etag },
          expectStatus: 304,
          pid: cached.pid,
        }),
      );
    }
  } finally {
    await cached.stop();
  }
  const uncached = await start({ RESPONSE_CACHE_TTL_MS: '0' });
  try {
    for (const [name, path] of READS) {
      rows.push(
        await measure(`${name}, read afresh`, { url: `${uncached.url}${path}`, headers, pid: uncached.pid }),
      );
    }
  } finally {
    await uncached.stop();
  }
  process.stdout.write('\n');
  printTable(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
