// The pull path end to end on the built code (dist/): a fake test-results service (its own
// process) answers PULL_APPS apps x PULL_SPECS specs x PULL_RUNS runs a day over the 15 days of a
// report window; another process runs what the worker runs for one report date: the watched
// apps, the real Cypress client streaming the answer into the aggregator, and saveReport on a
// SQLite file. It prints seconds, rows/s, the client process's CPU time and its peak RSS growth
// (kernel high-water mark, reset right before the report), best and median of PULL_PASSES.
// Usage: npm run build && node bench/pull-path.mjs   (PULL_PROFILE=dir writes a CPU profile)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_ARGS, startProcess } from './lib.mjs';

const APPS = Number(process.env.PULL_APPS ?? 50);
const SPECS = Number(process.env.PULL_SPECS ?? 100);
const RUNS = Number(process.env.PULL_RUNS ?? 2);
const PASSES = Number(process.env.PULL_PASSES ?? 3);
const PROFILE_DIR = process.env.PULL_PROFILE;
const REPORT_DATE = '2025-03-15';
const dist = (path) => new URL(`../dist/src/${path}`, import.meta.url).href;

// Rows shaped like the real export (about 480 bytes each): every spec of every app runs RUNS
// times a day; a few fail, a few are flaky; each run has its own commit.
const FAKE_SERVER_SCRIPT = `
import { createHash } from 'node:crypto';
import { startFakeCypress } from ${JSON.stringify(new URL('../test/fakes/fake-cypress.ts', import.meta.url).href)};
const SPECS = ${SPECS}, RUNS = ${RUNS}, DAY = 86400000;
const windowEnd = Date.parse('${REPORT_DATE}T00:00:00Z');
const fake = await startFakeCypress();
fake.rowSource = function* (projects) {
  for (const project of projects) {
    const app = Number(project.slice(4));
    for (let day = windowEnd - 14 * DAY; day <= windowEnd; day += DAY) {
      for (let r = 0; r < RUNS; r += 1) {
        const run = Math.floor(day / DAY) * RUNS + r;
        const sha = createHash('sha1').update(project + run).digest('hex');
        for (let s = 0; s < SPECS; s += 1) {
          const h = (app * 7919 + s * 104729 + run * 31) % 97;
          const failed = h === 0 || (s === app % SPECS && (day / DAY) % 5 < 2);
          yield {
            project_name: project, project_id: 'id-' + project, run_number: run,
            run_url: 'https://cloud.example/' + project + '/runs/' + run,
            created_at: new Date(day + 3600000 * (8 + r) + s * 1000).toISOString(),
            status: failed ? 'failed' : 'passed', spec: 'cypress/e2e/area-' + (s % 10) + '/spec-' + s + '.cy.ts',
            branch: 'main', commit_sha: sha, total_tests: 6, pass_tests: failed ? 5 : 6,
            fail_tests: failed ? 1 : 0, flaky_tests: h === 1 ? 1 : 0, pending_tests: 0, skipped_tests: 0,
            duration_ms: 2000 + s * 10, spec_duration: 2000 + s * 10,
            commit_author_name: 'dev-' + (run % 9), commit_branch: 'main',
          };
        }
      }
    }
  }
};
process.stdout.write('READY ' + fake.url + '\\n');
`;

const PASS_SCRIPT = `
import { readFileSync, writeFileSync } from 'node:fs';
import { openDatabase, migrateToLatest } from ${JSON.stringify(dist('db/database.js'))};
import { createCypressClient } from ${JSON.stringify(dist('integrations/cypress/cypress-client.js'))};
import { createAggregator, reportWindow } from ${JSON.stringify(dist('modules/reports/aggregation.js'))};
import { createReportsRepository } from ${JSON.stringify(dist('modules/reports/reports.repository.js'))};
const status = (field) => Number(new RegExp(field + ':\\\\s+(\\\\d+)').exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const database = openDatabase({ dialect: 'sqlite', filename: process.env.DB_FILE });
await migrateToLatest(database.db);
const now = new Date().toISOString();
await database.db.insertInto('apps').values(Array.from({ length: ${APPS} }, (_, i) => ({
  name: 'app-' + i, code: 'app-' + i, pipeline_url: 'https://ci.example/app-' + i, watching: 1,
  created_at: now, updated_at: now,
}))).execute();
const repository = createReportsRepository(database.db);
const client = createCypressClient({ baseUrl: process.env.FAKE_URL, timeoutMs: 60000 });
// Peak RSS from here on: writing 5 resets the kernel's high-water mark (Linux 4.0+).
writeFileSync('/proc/self/clear_refs', '5');
const baseline = status('VmRSS');
const cpu = process.cpuUsage();
const started = process.hrtime.bigint();
const apps = await repository.watchedApps();
const aggregator = createAggregator(apps, '${REPORT_DATE}');
const projects = [...new Set(apps.map((app) => app.name))];
for await (const rows of client.specDetailBatches({ ...reportWindow('${REPORT_DATE}'), projects })) for (const row of rows) aggregator.add(row);
const aggregate = aggregator.finish();
await repository.saveReport('${REPORT_DATE}', aggregate);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const used = process.cpuUsage(cpu);
const peak = status('VmHWM');
await database.close();
process.stdout.write(JSON.stringify({ seconds, cpuSeconds: (used.user + used.system) / 1e6,
  rows: aggregator.rowsSeen, runs: aggregate.totals.totalRuns, growthBytes: peak - baseline }) + '\\n');
`;

function runPass(fakeUrl, dbFile) {
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_ARGS, ...profile, '--input-type=module', '-e', PASS_SCRIPT],
    { env: { ...process.env, FAKE_URL: fakeUrl, DB_FILE: dbFile }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').pop()))
        : reject(new Error(`pass exited with ${code}: ${output}`)),
    ),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'pull-bench-'));
const fake = await startProcess(['--import', 'tsx', '--input-type=module', '-e', FAKE_SERVER_SCRIPT]);
try {
  const passes = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    passes.push(await runPass(fake.url, join(dir, `pass-${pass}.sqlite`)));
  }
  const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
  const sorted = (key) => passes.map((p) => p[key]).sort((a, b) => a - b);
  const { rows, runs } = passes[0];
  const seconds = sorted('seconds');
  const cpu = sorted('cpuSeconds');
  const growth = sorted('growthBytes');
  const median = (xs) => xs[Math.floor(xs.length / 2)];
  process.stdout.write(
    `pull path (${APPS} apps x ${SPECS} specs x ${RUNS} runs/day: ${rows.toLocaleString('en-US')} rows, ` +
      `${runs.toLocaleString('en-US')} runs), ${PASSES} passes:\n` +
      `  end to end ${seconds[0].toFixed(2)} s best (${Math.round(rows / seconds[0]).toLocaleString('en-US')} rows/s), ` +
      `${median(seconds).toFixed(2)} s median; client CPU ${cpu[0].toFixed(2)} s best, ${median(cpu).toFixed(2)} s median; ` +
      `peak RSS growth ${mib(growth[0])} to ${mib(growth.at(-1))}\n`,
  );
} finally {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
}
