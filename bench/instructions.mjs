// `npm run bench:instructions`: machine instructions per request, counted by valgrind's callgrind
// on the built service (embedded default, API role). Wall-clock ratios on a shared two-core
// machine move by 15 % or more from one run to the next; an instruction count does not depend on
// what else the machine runs, so it can tell two builds apart by a few percent. Counting starts
// after a warm-up (so start-up and the first compilations are left out) and covers `BENCH_COUNT`
// requests of one scenario; the figure still moves by a few percent between runs (V8 compiles and
// collects garbage on its own schedule), so compare builds in alternating runs.
//
// BENCH_ENTRY (another build's cli.js), BENCH_ONLY (regular expression on the scenario names),
// BENCH_WARMUP and BENCH_COUNT (requests) change it. Needs valgrind (callgrind_control on PATH).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_KEY, SERVICE_NODE_ARGS, serviceEnvironment, startProcess } from './lib.mjs';

const entry = resolve(process.env.BENCH_ENTRY ?? 'dist/src/cli.js');
const warmup = Number(process.env.BENCH_WARMUP ?? 15_000);
const count = Number(process.env.BENCH_COUNT ?? 5_000);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const json = { 'x-api-key': BENCH_KEY, 'content-type': 'application/json' };

const scenarios = [
  ['GET /health', { path: '/health' }],
  ['GET /api/apps (cached)', { path: '/api/apps', headers: json }],
  [
    'POST /api/to_do_list',
    {
      path: '/api/to_do_list',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: 'Bench', description: 'x', dueDate: '2030-01-02' }),
    },
  ],
];

function startUnderCallgrind(dir) {
  const launcher = [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    // V8 compiles optimised code on other threads: counting only the main one leaves out the
    // compilations still running after the warm-up, which vary from run to run.
    '--separate-threads=yes',
    // V8 writes and rewrites machine code at run time.
    '--smc-check=all-non-file',
    `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
    `--log-file=${join(dir, 'valgrind.log')}`,
  ];
  return startProcess(
    [...SERVICE_NODE_ARGS, entry, 'serve', '--roles', 'api'],
    serviceEnvironment(join(dir, 'bench.sqlite')),
    launcher,
  );
}

function load(url, request, amount) {
  const { path, ...rest } = request;
  return autocannon({ url: `${url}${path}`, connections: 10, amount, ...rest });
}

// valgrind names its control pipes after the HOST variable, which the service reads as its
// listening address: callgrind_control must see the same value to find them.
const control = { stdio: 'ignore', env: { ...process.env, HOST: '127.0.0.1' } };

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The main thread's part of the dump callgrind_control asked for, once it is complete. */
async function totalInstructions(dir) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const dump = readdirSync(dir).find((name) => /^callgrind\.out\.\d+-01$/.test(name));
    const text = dump ? readFileSync(join(dir, dump), 'utf8') : '';
    const total = /^(?:summary|totals): (\d+)/m.exec(text)?.[1];
    if (total) return Number(total);
    await sleep(100);
  }
  throw new Error(`callgrind wrote no dump: ${readdirSync(dir).join(', ')}`);
}

process.stdout.write(`Instructions per request (callgrind), service ${entry}\n\n`);
process.stdout.write('| scenario | instructions per request |\n|---|---|\n');
for (const [name, request] of scenarios) {
  if (only && !only.test(name)) continue;
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-instructions-'));
  const { child, url, stop } = await startUnderCallgrind(dir);
  try {
    await load(url, request, warmup);
    execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], control);
    await load(url, request, count);
    execFileSync('callgrind_control', ['-d', String(child.pid)], control);
    execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], control);
    const perRequest = Math.round((await totalInstructions(dir)) / count);
    process.stdout.write(`| ${name} | ${perRequest.toLocaleString('en')} |\n`);
  } finally {
    child.kill('SIGKILL');
    await stop();
    rmSync(dir, { recursive: true, force: true });
    // A killed valgrind leaves its control pipes behind.
    for (const name of readdirSync('/tmp').filter((file) => file.includes(`vgdb-${child.pid}-`)))
      rmSync(join('/tmp', name), { force: true });
  }
}
