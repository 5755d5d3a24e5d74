import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL server of the test's own (initdb + pg_ctl in a temporary directory, on a free
 * port), which the test may stop and start as an operator would; the shared server on 5432 is
 * never touched. initdb and postgres refuse to run as root, so as root they run as the
 * `postgres` user, in a directory that user owns.
 */
export interface PrivatePostgres {
  /** Connection URL of the `postgres` database (trust authentication). */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: sessions are ended, the server checkpoints and exits. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its data directory. */
  destroy(): Promise<void>;
}

const PACKAGED_BIN = '/usr/lib/postgresql/15/bin';

function findBinDirectory(): string | undefined {
  const candidates = [PACKAGED_BIN, ...(process.env.PATH ?? '').split(delimiter)];
  return candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/**
 * The directory holding initdb and pg_ctl. Missing binaries skip the suites that need them,
 * loudly, unless `CI` is set, where they fail the run.
 */
export function postgresBinaries(): string | undefined {
  const found = findBinDirectory();
  if (found) return found;
  if (process.env.CI)
    throw new Error('initdb/pg_ctl not found (PostgreSQL server binaries), and CI requires them');
  process.stderr.write(
    '\n*** initdb/pg_ctl not found: the private-PostgreSQL suites are SKIPPED (set CI=1 to fail instead)\n',
  );
  return undefined;
}

const asRoot = process.getuid?.() === 0;

/**
 * Runs a PostgreSQL tool, as the `postgres` user when this process is root. Asynchronous, so a
 * test keeps sending requests while the server stops and starts.
 */
function runTool(bin: string, tool: string, args: string[]): Promise<void> {
  const command = join(bin, tool);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || error.message}`));
      else resolve();
    });
  });
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const root = mkdtempSync(join(tmpdir(), 'dashboard-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  const data = join(root, 'data');
  const log = join(root, 'server.log');
  const port = await freePort();
  await runTool(bin, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  // Sockets stay in the private directory; fsync is off because nothing here outlives the
  // machine (a fast stop still checkpoints, so every committed row survives a restart).
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = () =>
    runTool(bin, 'pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '30', 'start']);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await runTool(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) {
        try {
          await runTool(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } catch {
          // Already gone: only the directory is left to remove.
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
