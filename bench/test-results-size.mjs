// Bytes a stored passing result costs (issue #36: at most 64 bytes on SQLite and PostgreSQL,
// measured as database growth over 1,000,000 results). The real server (built) takes JUnit
// uploads of the same 5,000 tests (100 specs × 50 tests, all passing) run after run; the first
// upload creates the shared identities and is left out of the growth. `node bench/test-results-size.mjs`
// after `npm run build`; BENCH_DB=postgres (a fresh database on 127.0.0.1:5432) and
// BENCH_RESULTS change it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  BENCH_KEY as KEY,
  createPostgresDatabase,
  dropPostgresDatabase,
  SERVICE_NODE_ARGS,
  serviceEnvironment,
  startProcess,
} from './lib.mjs';

const RESULTS = Number(process.env.BENCH_RESULTS ?? 1_000_000);
const POSTGRES = process.env.BENCH_DB === 'postgres';
const SPECS = 100;
const TESTS_PER_SPEC = 50;
const PER_UPLOAD = SPECS * TESTS_PER_SPEC;
const dir = mkdtempSync(join(tmpdir(), 'dashboard-size-bench-'));
const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');
const pgName = `bench_size_${process.pid}`;

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

async function databaseBytes(url) {
  if (!POSTGRES) {
    const db = new Database(join(dir, 'size.sqlite'), { readonly: true, fileMustExist: true });
    const pages = db.pragma('page_count', { simple: true }) - db.pragma('freelist_count', { simple: true });
    const bytes = pages * db.pragma('page_size', { simple: true });
    db.close();
    return bytes;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CHECKPOINT').catch(() => undefined);
  const { rows } = await client.query('SELECT pg_database_size(current_database()) AS bytes');
  await client.end();
  return Number(rows[0].bytes);
}

const admin = 'postgres://postgres@127.0.0.1:5432/test';
let url = `sqlite:${join(dir, 'size.sqlite')}`;
if (POSTGRES) {
  await createPostgresDatabase(admin, pgName);
  url = `postgres://postgres@127.0.0.1:5432/${pgName}`;
}
const service = await startProcess([...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api'], {
  ...serviceEnvironment(join(dir, 'size.sqlite')),
  DATABASE_URL: url,
  REPORT_REFRESH_DELAY_MS: '3600000',
});
const headers = { 'x-api-key': KEY };
try {
  const created = await fetch(`${service.url}/api/apps`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'size',
      code: 'size',
      pipelineUrl: 'https://ci.example.com/p',
      watching: false,
    }),
  });
  if (!created.ok) throw new Error(await created.text());
  const body = report();
  const send = async (run) => {
    const response = await fetch(
      `${service.url}/api/test_results?app=size&run=${run}&commit=c${run}&branch=main`,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/xml' },
        body,
      },
    );
    if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
  };
  await send(1);
  const before = await databaseBytes(url);
  const uploads = Math.ceil(RESULTS / PER_UPLOAD);
  const started = performance.now();
  for (let run = 2; run <= uploads + 1; run++) await send(run);
  const seconds = (performance.now() - started) / 1000;
  const after = await databaseBytes(url);
  const results = uploads * PER_UPLOAD;
  const perResult = (after - before) / results;
  process.stdout.write(
    [
      `Stored results (${POSTGRES ? 'PostgreSQL' : 'SQLite'}): ${results} passing results in ${uploads} uploads of ${PER_UPLOAD} tests (${SPECS} specs)`,
      `  database ${(before / 1e6).toFixed(1)} MB after the first upload, ${(after / 1e6).toFixed(1)} MB after: ${perResult.toFixed(1)} bytes per result (target <= 64: ${perResult <= 64 ? 'ok' : 'MISSED'})`,
      `  uploaded in ${seconds.toFixed(1)} s (${Math.round(results / seconds)} results/s)`,
      '',
    ].join('\n'),
  );
} finally {
  await service.stop();
  if (POSTGRES) await dropPostgresDatabase(admin, pgName);
  rmSync(dir, { recursive: true, force: true });
}
