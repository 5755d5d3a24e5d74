import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Helpers for running `dashboard` as a child process, the way a CI job runs it. */

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPOSITORY, 'src/cli.ts');
// Absolute, so the child may run in any working directory (a checkout, or none).
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export const reportPath = (name: string) => join(REPOSITORY, 'test/fixtures/reporters/reports', name);

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the CLI with exactly `env` (plus PATH and HOME), in `cwd`. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd: string; home?: string },
): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: options.home ?? options.cwd, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, err };
}

/** A fresh folder (its real path: the CLI sees the resolved working directory). */
export const scratchFolder = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

/** A git checkout with one commit by `author`; resolves with its folder and the commit's sha. */
export function checkoutWithCommit(author: string): { folder: string; sha: string } {
  const folder = scratchFolder('cli-checkout-');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: folder,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: folder, GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  git('init', '-q');
  git(
    '-c',
    `user.name=${author}`,
    '-c',
    'user.email=author@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'first',
  );
  return { folder, sha: git('rev-parse', 'HEAD') };
}

/** Writes GitHub's event payload file and returns its path. */
export function githubEvent(payload: unknown): string {
  const folder = scratchFolder('cli-event-');
  const path = join(folder, 'event.json');
  writeFileSync(path, JSON.stringify(payload));
  return path;
}
