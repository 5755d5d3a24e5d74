import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../../src/server.js';
import { TEST_KEY, testConfig } from '../../support/test-app.js';

const dir = mkdtempSync(join(tmpdir(), 'dashboard-persist-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded default over real HTTP', () => {
  it('keeps data in the SQLite file across a restart', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'dash.sqlite')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      ROLES: 'api',
    };
    const first = await startService(testConfig(env));
    const created = await fetch(`${first.address}/api/to_do_list`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Survive restart ✓', dueDate: '2030-01-01' }),
    });
    expect(created.status).toBe(201);
    await first.stop();

    const second = await startService(testConfig(env));
    try {
      const list = await fetch(`${second.address}/api/to_do_list`, { headers: { 'x-api-key': TEST_KEY } });
      const body = (await list.json()) as { data: Array<{ title: string; dueDate: string }> };
      expect(body.data).toEqual([
        expect.objectContaining({ title: 'Survive restart ✓', dueDate: '2030-01-01T00:00:00.000Z' }),
      ]);
    } finally {
      await second.stop();
    }
  });
});

/** Runs the CLI; with `untilOutput`, stops it `graceMs` after that output appears. */
function runCli(
  args: string[],
  env: Record<string, string>,
  untilOutput?: RegExp,
  graceMs = 0,
  nodeArgs: string[] = [],
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/cli.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (untilOutput?.test(stdout)) setTimeout(() => child.kill('SIGTERM'), graceMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('dashboard CLI', () => {
  it('migrates a new database and reports it up to date the second time', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, API_SECURITY_KEY: TEST_KEY };
    const first = await runCli(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('001-initial');
    const second = await runCli(['migrate'], env);
    expect(second.stdout).toContain('up to date');
  });

  it('stops boot naming the bad variable', async () => {
    const res = await runCli(['serve'], {
      BRUTE_FORCE_WINDOW_MS: 'soon',
      DATABASE_URL: `sqlite:${join(dir, 'x.sqlite')}`,
    });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('BRUTE_FORCE_WINDOW_MS');
  });

  it('stops boot naming the variable when push credentials are unusable', async () => {
    const res = await runCli(['serve'], {
      API_SECURITY_KEY: TEST_KEY,
      FCM_SERVICE_ACCOUNT_JSON: '{not json',
      DATABASE_URL: `sqlite:${join(dir, 'fcm.sqlite')}`,
      PORT: '0',
    });
    expect(res.code).toBe(78);
    expect(res.stderr).toContain('FCM_SERVICE_ACCOUNT_JSON');
    expect(res.stderr).not.toContain('    at ');
  });

  it('runs every role in one process with one push setup, logged once', async () => {
    const res = await runCli(
      ['serve'],
      {
        API_SECURITY_KEY: TEST_KEY,
        LOG_LEVEL: 'info',
        DATABASE_URL: `sqlite:${join(dir, 'all.sqlite')}`,
        PORT: '0',
        HOST: '127.0.0.1',
      },
      /listening on/,
      2000,
    );
    expect(res.stdout).toContain('dashboard api,worker,scheduler listening on');
    expect(res.stdout.match(/Push delivery is off/g) ?? []).toHaveLength(1);
  });

  it('prints a generated key once when none is configured, and serves with it', async () => {
    const res = await runCli(
      ['serve', '--roles', 'api'],
      { DATABASE_URL: `sqlite:${join(dir, 'gen.sqlite')}`, PORT: '0', HOST: '127.0.0.1' },
      /listening on/,
    );
    const keys = res.stdout.match(/^\s{4}(\S{40})$/gm) ?? [];
    expect(keys).toHaveLength(1);
    expect(res.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  });
});
