// Ingestion of a large JUnit upload: a 100 MB file of 200,000 test cases sent to the real
// server (built, embedded SQLite) as one POST /api/test_results. Reports the ingestion rate
// (target: at least 50,000 test cases/s), the service's peak RSS growth while it ingests (target:
// at most 64 MiB) and the p99 latency of GET /api/apps asked over and over meanwhile (target: at
// most 50 ms). Run after `npm run build`: `node bench/uploads.mjs` (BENCH_UPLOAD_CASES and
// BENCH_UPLOAD_GZIP=1 change it).
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { clearInterval, setInterval } from 'node:timers';
import { createGzip } from 'node:zlib';
import { BENCH_KEY as KEY, rssMiB, SERVICE_NODE_ARGS, serviceEnvironment, startProcess } from './lib.mjs';

const CASES = Number(process.env.BENCH_UPLOAD_CASES ?? 200_000);
const GZIP = process.env.BENCH_UPLOAD_GZIP === '1';
const CASES_PER_SPEC = 100;
const dir = mkdtempSync(join(tmpdir(), 'dashboard-upload-bench-'));
const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');

/** Writes a mocha-junit-reporter-like file: one suite per spec, 1 % failures, ~500 bytes a case. */
async function writeReport(file) {
  const out = createWriteStream(file);
  const write = (text) => (out.write(text) ? undefined : new Promise((done) => out.once('drain', done)));
  await write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="Mocha Tests">\n');
  const padding = 'checks that the page renders the expected content and state'.repeat(7);
  for (let spec = 0; spec < CASES / CASES_PER_SPEC; spec++) {
    let chunk = `<testsuite name="suite ${spec}" file="cypress/e2e/area-${spec}.cy.ts" timestamp="2026-11-20T10:00:00" tests="${CASES_PER_SPEC}">\n`;
    for (let test = 0; test < CASES_PER_SPEC; test++) {
      chunk += `  <testcase name="suite ${spec} case ${test} ${padding}" classname="case ${test}" time="0.012">`;
      if (test === 7) {
        chunk += `<failure message="expected &lt;h1&gt; to contain 'Welcome'" type="AssertionError"><![CDATA[AssertionError: expected <h1> to contain 'Welcome'\n    at Context.eval (cypress/e2e/area-${spec}.cy.ts:12:5)]]></failure>`;
      }
      chunk += '</testcase>\n';
    }
    await write(`${chunk}</testsuite>\n`);
  }
  await new Promise((done) => out.end('</testsuites>\n', done));
}

async function api(url, path, init = {}) {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { 'x-api-key': KEY, 'content-type': 'application/json', ...init.headers },
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

function upload(url, file, code, run = 1) {
  return new Promise((resolveUpload, reject) => {
    const req = request(`${url}/api/test_results?app=${code}&run=${run}`, {
      method: 'POST',
      headers: {
        'x-api-key': KEY,
        'content-type': 'application/xml',
        ...(GZIP ? { 'content-encoding': 'gzip' } : { 'content-length': statSync(file).size }),
      },
    });
    req.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        response.statusCode === 201
          ? resolveUpload(JSON.parse(text))
          : reject(new Error(`${response.statusCode} ${text}`)),
      );
    });
    req.on('error', reject);
    const source = createReadStream(file, { highWaterMark: 64 * 1024 });
    (GZIP ? pipeline(source, createGzip({ level: 1 }), req) : pipeline(source, req)).catch(reject);
  });
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const file = join(dir, 'junit.xml');
await writeReport(file);
const sizeMb = statSync(file).size / 1e6;
const service = await startProcess([...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api'], {
  ...serviceEnvironment(join(dir, 'bench.sqlite')),
  UPLOAD_MAX_BYTES: String(512 * 1024 * 1024),
  REQUEST_TIMEOUT_MS: '300000',
});
try {
  const created = await api(service.url, '/api/apps', {
    method: 'POST',
    body: JSON.stringify({
      name: 'bench',
      code: 'bench',
      pipelineUrl: 'https://ci.example.com/p',
      watching: true,
    }),
  });
  void created;
  for (let i = 0; i < 200; i++) await api(service.url, '/api/apps');
  await new Promise((done) => setTimeout(done, 1000));
  const baseline = rssMiB(service.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(service.pid))), 20);

  const latencies = [];
  let uploading = true;
  const reader = (async () => {
    while (uploading) {
      const started = performance.now();
      await api(service.url, '/api/apps');
      latencies.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, 5));
    }
  })();
  const started = performance.now();
  const answer = await upload(service.url, file, 'bench');
  const seconds = (performance.now() - started) / 1000;
  uploading = false;
  await reader;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(service.pid));

  // The same tests again in the next run: their identities exist (the steady state of a CI).
  const againStarted = performance.now();
  await upload(service.url, file, 'bench', 2);
  const againSeconds = (performance.now() - againStarted) / 1000;
  const rate = answer.data.tests / seconds;
  const growth = peak - baseline;
  const p99 = percentile(latencies, 99);
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  process.stdout.write(
    [
      `Upload ingestion: ${sizeMb.toFixed(1)} MB JUnit XML, ${answer.data.tests} test cases in ${answer.data.specs} specs${GZIP ? ' (gzipped on the wire)' : ''}`,
      `  ingested in ${seconds.toFixed(2)} s: ${Math.round(rate)} test cases/s (target >= 50000: ${verdict(rate >= 50_000)})`,
      `  the same tests in the next run (identities known): ${againSeconds.toFixed(2)} s, ${Math.round(answer.data.tests / againSeconds)} test cases/s`,
      `  service RSS ${baseline} MiB before, peak ${peak} MiB: growth ${growth.toFixed(1)} MiB (target <= 64: ${verdict(growth <= 64)})`,
      `  GET /api/apps during ingestion: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (target p99 <= 50: ${verdict(p99 <= 50)})`,
      '',
    ].join('\n'),
  );
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
