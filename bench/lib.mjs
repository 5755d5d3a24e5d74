import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { readFileSync } from 'node:fs';

export const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Seconds of ceiling measured right before each row (`BENCH_ADJACENT=0` turns it off). */
export const ADJACENT_S = Number(process.env.BENCH_ADJACENT ?? Math.max(2, Math.round(DURATION_S / 3)));

/** Resident set size of a process (Linux), in MiB. */
export function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/**
 * Node flags the service runs with: the deployment flag `npm start` and the Procfile pass
 * (`BENCH_SEMI=4` measures another semi-space size against it).
 */
export const SERVICE_NODE_ARGS = [`--max-semi-space-size=${process.env.BENCH_SEMI ?? 8}`];

export const BENCH_KEY = 'bench-key-0123456789abcdefghijklmnopqrstuvwxyz';

/** The service's environment in the benches: embedded default on `databaseFile`, rate limit off. */
export function serviceEnvironment(databaseFile) {
  return {
    API_SECURITY_KEY: BENCH_KEY,
    DATABASE_URL: `sqlite:${databaseFile}`,
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
}

/**
 * Starts a child process (node, or `launcher` with node as its first argument) and resolves with
 * its address once it prints `READY <url>` or `listening on <url>`.
 */
export function startProcess(args, env = {}, launcher = []) {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = launcher.length ? launcher : [process.execPath];
    const nodeArgs = launcher.length ? [process.execPath, ...args] : args;
    const child = spawn(command, [...prefix, ...nodeArgs], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /(?:READY|listening on) (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ url: match[1], pid: child.pid, child, stop: () => stopProcess(child) });
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited early (${code}): ${output}`)));
  });
}

function stopProcess(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU time (user, system) a process has used so far, in microseconds (Linux). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, in clock ticks (100 per second on Linux).
  return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
}

/**
 * Runs autocannon against one request shape and returns req/s and latency figures. With `pid`
 * (the server's process), also the server's CPU time per request: a figure that moves much less
 * than req/s when the machine is busy, since it does not count time spent waiting for the CPU.
 */
export async function measure(name, options) {
  const { expectStatus: _expected, pid, ...request } = options;
  const before = pid === undefined ? undefined : cpuMicros(pid);
  const result = await autocannon({
    connections: CONNECTIONS,
    pipelining: 1,
    duration: DURATION_S,
    ...request,
  });
  const expected = options.expectStatus;
  // A 304 is the expected answer of the revalidation rows; anything else outside 2xx counts.
  const non2xx =
    expected === 304
      ? result.requests.total - (result.statusCodeStats?.['304']?.count ?? 0) + result.errors
      : result.non2xx + result.errors;
  const after = pid === undefined ? undefined : cpuMicros(pid);
  const perRequest = (key) =>
    before ? ((after[key] - before[key]) / result.requests.total).toFixed(1) : '-';
  return {
    name,
    cpuUs: before ? `${perRequest('user')} + ${perRequest('system')}` : '-',
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: non2xx,
  };
}

/**
 * `measure` with the ceiling measured again just before the row (for ADJACENT_S seconds, same
 * connections as the row): on a shared machine the ceiling measured once at the start can be far from the
 * machine's state when a later row runs, and the ratio moves with it. Both ratios are printed.
 */
export function measureBesideCeiling(ceiling) {
  return async (name, options) => {
    if (!ADJACENT_S) return measure(name, options);
    const adjacent = await measure('ceiling', {
      url: ceiling.url,
      duration: ADJACENT_S,
      ...(options.connections ? { connections: options.connections } : {}),
    });
    return { ...(await measure(name, options)), adjacentCeiling: adjacent.reqPerSec };
  };
}

export function printTable(rows, ceiling) {
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'ratio to ceiling',
    'ceiling just before',
    'ratio to it',
    'server CPU µs/req (user + sys)',
  ];
  const lines = rows.map((row) => [
    row.name,
    String(row.reqPerSec),
    String(row.p50),
    String(row.p99),
    String(row.errors),
    ceiling ? (row.reqPerSec / ceiling).toFixed(3) : '-',
    row.adjacentCeiling ? String(row.adjacentCeiling) : '-',
    row.adjacentCeiling ? (row.reqPerSec / row.adjacentCeiling).toFixed(3) : '-',
    row.cpuUs ?? '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  process.stdout.write(`${format(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const line of lines) process.stdout.write(`${format(line)}\n`);
}

/** A fresh PostgreSQL database for a bench run (`admin`: a URL of an existing database). */
export async function createPostgresDatabase(admin, name) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
}

export async function dropPostgresDatabase(admin, name) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name}`);
  await client.end();
}
