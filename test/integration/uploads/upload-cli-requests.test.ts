import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeDashboard } from '../../fakes/fake-dashboard.js';
import { checkoutWithCommit, githubEvent, reportPath, runCli, scratchFolder } from './cli-process.js';
import {
  CIRCLE,
  dashboardEnv,
  GITHUB,
  GITLAB,
  JUNIT,
  KEY,
  resetWire,
  startWire,
} from './upload-cli-support.js';

// What `dashboard upload` sends: the query from each CI's variables, and report files as they are.

describe('dashboard upload on the wire', () => {
  let dashboard: FakeDashboard;
  let outside: string;
  const base = () => dashboardEnv(dashboard);

  beforeAll(async () => {
    ({ dashboard, outside } = await startWire());
  });
  afterAll(async () => dashboard.close());
  beforeEach(() => resetWire(dashboard));

  it("sends GitHub Actions' run, attempt, workspace and actor, and the commit's author from git", async () => {
    const checkout = checkoutWithCommit('Ada Lovelace');
    const event = githubEvent({ head_commit: { author: { name: 'Not Used' } } });
    const result = await runCli(['upload', JUNIT, '--app', 'shop'], {
      cwd: checkout.folder,
      env: { ...base(), ...GITHUB, GITHUB_SHA: checkout.sha, GITHUB_EVENT_PATH: event },
    });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^jest-junit\.xml: uploaded as #\d+ \(junit, run 314, attempt 2\): 5 tests/);
    const [sent] = dashboard.uploads();
    expect(sent!.method).toBe('POST');
    expect(sent!.query).toEqual({
      app: 'shop',
      run: '314',
      attempt: '2',
      commit: checkout.sha,
      branch: 'main',
      author: 'Ada Lovelace',
      triggeredBy: 'octocat',
      runUrl: 'https://github.com/acme/shop/actions/runs/9876543210',
      root: '/home/runner/work/shop/shop',
    });
    expect(sent!.headers).toMatchObject({
      'x-api-key': KEY,
      'content-type': 'application/xml',
      'content-encoding': 'gzip',
    });
    expect(gunzipSync(sent!.body).equals(readFileSync(JUNIT))).toBe(true);
  });

  it("takes the author from GitHub's event payload outside a checkout, and --attempt over the variable", async () => {
    const push = githubEvent({ head_commit: { author: { name: 'Mona Lisa' } }, sender: { login: 'bot' } });
    const pullRequest = githubEvent({ pull_request: { user: { login: 'hubot' } } });
    const env = { ...base(), ...GITHUB, GITHUB_SHA: 'a1b2c3d4' };
    for (const [extra, args] of [
      [{ GITHUB_EVENT_PATH: push }, []],
      [{ GITHUB_EVENT_PATH: pullRequest }, ['--attempt', '3']],
      [{}, []],
    ] as const) {
      const result = await runCli(['upload', JUNIT, '--app', 'shop', ...args], {
        cwd: outside,
        env: { ...env, ...extra },
      });
      expect(result.code).toBe(0);
    }
    const queries = dashboard.uploads().map((request) => request.query);
    expect(queries.map((query) => [query.author, query.attempt, query.triggeredBy])).toEqual([
      ['Mona Lisa', '2', 'octocat'],
      ['hubot', '3', 'octocat'],
      [undefined, '2', 'octocat'],
    ]);
    expect(Object.keys(queries[2]!)).not.toContain('author');
  });

  it("sends CircleCI's and GitLab CI's variables, and the working directory outside any CI", async () => {
    const home = scratchFolder('cli-home-');
    const circle = await runCli(['upload', JUNIT, '--app', 'shop'], {
      cwd: outside,
      home,
      env: { ...base(), ...CIRCLE },
    });
    const gitlab = await runCli(['upload', JUNIT, '--app', 'shop'], {
      cwd: outside,
      env: { ...base(), ...GITLAB },
    });
    const local = await runCli(['upload', JUNIT, '--app', 'shop', '--run', '77', '--commit', 'abc123'], {
      cwd: outside,
      env: base(),
    });
    expect([circle.code, gitlab.code, local.code]).toEqual([0, 0, 0]);
    const [fromCircle, fromGitlab, fromHere] = dashboard.uploads().map((request) => request.query);
    expect(fromCircle).toEqual({
      app: 'shop',
      run: '12',
      commit: 'c1rc1e5ha',
      branch: 'dev',
      triggeredBy: 'ada',
      runUrl: 'https://circleci.com/gh/acme/shop/12',
      // CircleCI writes the variable as `~/project`.
      root: join(home, 'project'),
    });
    expect(fromGitlab).toEqual({
      app: 'shop',
      run: '5',
      commit: '9171ab5ha',
      branch: 'main',
      triggeredBy: 'grace',
      runUrl: 'https://gitlab.com/acme/shop/-/pipelines/99',
      root: '/builds/acme/shop',
    });
    expect(fromHere).toEqual({ app: 'shop', run: '77', commit: 'abc123', root: outside });
  });

  it('sends a gzipped report as it is, typed by what it holds, whatever its name', async () => {
    const folder = scratchFolder('cli-gz-');
    const xml = readFileSync(JUNIT);
    const json = readFileSync(reportPath('playwright.json'));
    const files = {
      'junit.xml.gz': gzipSync(xml),
      'results.gz': gzipSync(json),
      'report.json.gz': gzipSync(json),
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
    const result = await runCli(['upload', ...Object.keys(files), '--app', 'shop', '--run', '8'], {
      cwd: folder,
      env: base(),
    });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const sent = dashboard.uploads();
    expect(sent.map((request) => request.headers['content-type'])).toEqual([
      'application/xml',
      'application/json',
      'application/json',
    ]);
    expect(sent.every((request) => request.headers['content-encoding'] === 'gzip')).toBe(true);
    // Byte for byte the file: not gzipped a second time.
    expect(sent.map((request) => request.body)).toEqual(Object.values(files));
  });

  it('refuses a damaged gzip file before sending it', async () => {
    const folder = scratchFolder('cli-gz-');
    writeFileSync(join(folder, 'broken.xml.gz'), Buffer.from([0x1f, 0x8b, 0x00, 0x01, 0x02, 0x03]));
    const result = await runCli(['upload', 'broken.xml.gz', '--app', 'shop', '--run', '8'], {
      cwd: folder,
      env: base(),
    });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^broken\.xml\.gz: upload failed: not a readable gzip file/);
    expect(dashboard.uploads()).toEqual([]);
  });
});
