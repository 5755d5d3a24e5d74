import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFromCi, uploadCommand } from '../../../src/cli/upload-command.js';
import { startLiveServer, type LiveServer } from '../../support/live-server.js';
import { TEST_KEY } from '../../support/test-app.js';
import { githubEvent } from './cli-process.js';
import { createApp, REPORTS_DIR } from './upload-support.js';

const reportPath = (name: string) => fileURLToPath(new URL(name, REPORTS_DIR));

const GITHUB_ACTIONS = {
  GITHUB_ACTIONS: 'true',
  GITHUB_RUN_NUMBER: '314',
  GITHUB_RUN_ID: '9876543210',
  GITHUB_SHA: 'a1b2c3d4e5f6',
  GITHUB_REF_NAME: 'main',
  GITHUB_ACTOR: 'octocat',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SERVER_URL: 'https://github.com',
};

const capture = () => {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    lines,
    io: {
      out: (text: string) => void lines.out.push(text),
      err: (text: string) => void lines.err.push(text),
    },
  };
};

describe('dashboard upload', () => {
  let server: LiveServer;
  let shop: { id: number; code: string };

  beforeAll(async () => {
    server = await startLiveServer();
    const api = (options: InjectOptions) =>
      server.app.inject({ ...options, headers: { 'x-api-key': TEST_KEY } });
    shop = await createApp(api, 'shop');
  });
  afterAll(async () => server.close());

  const env = (extra: Record<string, string> = {}) => ({
    DASHBOARD_URL: server.baseUrl,
    DASHBOARD_API_KEY: TEST_KEY,
    ...GITHUB_ACTIONS,
    ...extra,
  });

  it('uploads each file gzipped with the run details GitHub Actions gives, one line per file', async () => {
    const { lines, io } = capture();
    // The commit is not in this checkout, so its author comes from the push event's payload.
    const event = githubEvent({ head_commit: { author: { name: 'Mona Lisa' } } });
    const code = await uploadCommand(
      [reportPath('jest-junit.xml'), reportPath('playwright.json'), '--app', shop.code],
      env({ GITHUB_EVENT_PATH: event }),
      io,
    );
    expect(lines.err).toEqual([]);
    expect(code).toBe(0);
    expect(lines.out).toHaveLength(2);
    expect(lines.out[0]).toMatch(/^jest-junit\.xml: uploaded as #\d+ \(junit, run 314\): 5 tests/);
    expect(lines.out[1]).toMatch(/^playwright\.json: uploaded as #\d+ \(playwright, run 314\)/);
    const stored = await server.database.db
      .selectFrom('test_result_uploads')
      .select(['run_number', 'commit_sha', 'branch', 'author', 'run_url'])
      .orderBy('id')
      .execute();
    expect(stored).toEqual([
      {
        run_number: 314,
        commit_sha: 'a1b2c3d4e5f6',
        branch: 'main',
        author: 'Mona Lisa',
        run_url: 'https://github.com/acme/shop/actions/runs/9876543210',
      },
      expect.objectContaining({ run_number: 314 }),
    ]);

    const repeat = capture();
    expect(await uploadCommand([reportPath('jest-junit.xml'), '--app', shop.code], env(), repeat.io)).toBe(0);
    expect(repeat.lines.out[0]).toContain('already uploaded');
  });

  it('lets flags win over the CI variables and exits non-zero when any upload fails', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'upload-cli-'));
    const broken = join(folder, 'broken.xml');
    writeFileSync(broken, '<testsuites><testsuite>');
    const { lines, io } = capture();
    const code = await uploadCommand(
      [
        reportPath('pytest-junit.xml'),
        broken,
        join(folder, 'missing.xml'),
        '--app',
        shop.code,
        '--run',
        '77',
        '--branch',
        'feature/x',
      ],
      env(),
      io,
    );
    expect(code).toBe(1);
    expect(lines.out).toEqual([
      expect.stringMatching(/^pytest-junit\.xml: uploaded as #\d+ \(junit, run 77\)/),
    ]);
    expect(lines.err).toEqual([
      expect.stringMatching(
        /broken\.xml: upload failed: 400 VALIDATION_ERROR.*INVALID_FORMAT|broken\.xml: upload failed: 400 VALIDATION_ERROR/,
      ),
      expect.stringContaining('missing.xml: upload failed'),
    ]);
    const row = await server.database.db
      .selectFrom('test_result_uploads')
      .select(['branch', 'commit_sha'])
      .where('run_number', '=', 77)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ branch: 'feature/x', commit_sha: 'a1b2c3d4e5f6' });
  });

  it('reports usage errors (no app, no run outside CI, no URL or key) with 64, and an unknown app with 1', async () => {
    const usage = capture();
    expect(
      await uploadCommand([reportPath('pytest-junit.xml')], { DASHBOARD_URL: server.baseUrl }, usage.io),
    ).toBe(64);
    expect(usage.lines.err[0]).toContain('--app is required');
    expect(usage.lines.err[0]).toContain('--run is required');
    expect(usage.lines.err[0]).toContain('DASHBOARD_API_KEY is not set');
    const unknown = capture();
    expect(await uploadCommand([reportPath('pytest-junit.xml'), '--app', 'nope'], env(), unknown.io)).toBe(1);
    expect(unknown.lines.err[0]).toContain('404 NOT_FOUND');
  });

  it('reads CircleCI and GitLab CI variables (who started the run, not the commit author)', () => {
    expect(
      runFromCi({
        CIRCLECI: 'true',
        CIRCLE_BUILD_NUM: '12',
        CIRCLE_SHA1: 'abc',
        CIRCLE_BRANCH: 'dev',
        CIRCLE_USERNAME: 'ada',
        CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/12',
      }),
    ).toEqual({
      run: '12',
      commit: 'abc',
      branch: 'dev',
      triggeredBy: 'ada',
      url: 'https://circleci.com/gh/acme/shop/12',
    });
    expect(
      runFromCi({
        GITLAB_CI: 'true',
        CI_PIPELINE_IID: '5',
        CI_COMMIT_SHA: 'def',
        CI_COMMIT_REF_NAME: 'main',
        GITLAB_USER_LOGIN: 'grace',
        CI_PIPELINE_URL: 'https://gitlab.com/acme/shop/-/pipelines/99',
      }),
    ).toEqual({
      run: '5',
      commit: 'def',
      branch: 'main',
      triggeredBy: 'grace',
      url: 'https://gitlab.com/acme/shop/-/pipelines/99',
    });
    expect(runFromCi({})).toEqual({});
  });

  it('runs as `dashboard upload` from the command line', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'upload', reportPath('mocha-junit.xml'), '--app', shop.code],
      {
        env: { PATH: process.env.PATH, ...env({ GITHUB_RUN_NUMBER: '400' }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toMatch(
      /^mocha-junit\.xml: uploaded as #\d+ \(junit, run 400\): 6 tests, 4 passed, 1 failed, 0 flaky, 1 skipped\n$/,
    );
    expect(exitCode).toBe(0);
  });
});
