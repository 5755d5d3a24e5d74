import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeDashboard, type FakeDashboard } from '../../fakes/fake-dashboard.js';
import { freePort } from '../../support/free-port.js';
import { checkoutWithCommit, githubEvent, reportPath, runCli, scratchFolder } from './cli-process.js';

// `dashboard upload` as a CI job runs it: a child process, against a recording dashboard over
// real HTTP, checking the exact query and headers it sends from each CI's variables.

const KEY = 'wire-test-key-0123456789abcdef0123';
const JUNIT = reportPath('jest-junit.xml');

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_RUN_NUMBER: '314',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_RUN_ID: '9876543210',
  GITHUB_REF_NAME: 'main',
  GITHUB_ACTOR: 'octocat',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_WORKSPACE: '/home/runner/work/shop/shop',
};

const CIRCLE = {
  CIRCLECI: 'true',
  CIRCLE_BUILD_NUM: '12',
  CIRCLE_SHA1: 'c1rc1e5ha',
  CIRCLE_BRANCH: 'dev',
  CIRCLE_USERNAME: 'ada',
  CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/12',
  CIRCLE_WORKING_DIRECTORY: '~/project',
  CIRCLE_REPOSITORY_URL: 'git@github.com:acme/shop.git',
};

const GITLAB = {
  GITLAB_CI: 'true',
  CI_PIPELINE_IID: '5',
  CI_COMMIT_SHA: '9171ab5ha',
  CI_COMMIT_REF_NAME: 'main',
  GITLAB_USER_LOGIN: 'grace',
  GITLAB_USER_NAME: 'Grace Hopper',
  CI_PIPELINE_URL: 'https://gitlab.com/acme/shop/-/pipelines/99',
  CI_PROJECT_DIR: '/builds/acme/shop',
  CI_PROJECT_URL: 'https://gitlab.com/acme/shop',
};

describe('dashboard upload on the wire', () => {
  let dashboard: FakeDashboard;
  let outside: string;
  const base = () => ({ DASHBOARD_URL: dashboard.baseUrl, DASHBOARD_API_KEY: KEY });

  beforeAll(async () => {
    dashboard = await startFakeDashboard({ apiKey: KEY, apps: ['shop'] });
    outside = scratchFolder('cli-outside-');
  });
  afterAll(async () => dashboard.close());
  beforeEach(() => {
    dashboard.requests.length = 0;
    dashboard.faults.hang = false;
  });

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

  it('says in plain words that the dashboard cannot be reached, once, and exits 1', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const refused = await runCli(
      ['upload', JUNIT, reportPath('pytest-junit.xml'), '--app', 'shop', '--run', '1'],
      {
        cwd: outside,
        env: { DASHBOARD_URL: down, DASHBOARD_API_KEY: KEY },
      },
    );
    expect(refused).toEqual({
      code: 1,
      out: '',
      err: `cannot reach the dashboard at ${down} (connection refused)\n`,
    });

    const unknownHost = await runCli(['upload', JUNIT, '--app', 'shop', '--run', '1'], {
      cwd: outside,
      env: { DASHBOARD_URL: 'http://dashboard.invalid/', DASHBOARD_API_KEY: KEY },
    });
    expect(unknownHost.code).toBe(1);
    expect(unknownHost.err).toMatch(
      /^cannot reach the dashboard at http:\/\/dashboard\.invalid \(host name (not found|lookup failed)\)\n$/,
    );

    dashboard.faults.hang = true;
    const silent = await runCli(['upload', JUNIT, '--app', 'shop', '--run', '1', '--timeout', '0.3'], {
      cwd: outside,
      env: base(),
    });
    expect(silent.code).toBe(1);
    expect(silent.err).toBe(`cannot reach the dashboard at ${dashboard.baseUrl} (no answer within 0.3 s)\n`);
  });

  it('creates a missing app with --create-app from the CI repository URL, then uploads; an existing one is left alone', async () => {
    const args = ['upload', JUNIT, reportPath('pytest-junit.xml'), '--create-app', 'Web shop'];
    const created = await runCli([...args, '--app', 'web-shop'], {
      cwd: outside,
      env: { ...base(), ...CIRCLE },
    });
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toMatch(
      /^created app "Web shop" \(code web-shop, #\d+, https:\/\/github\.com\/acme\/shop\)\n/,
    );
    expect(dashboard.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/test_results',
      'POST /api/apps',
      'POST /api/test_results',
      'POST /api/test_results',
    ]);
    expect(JSON.parse(dashboard.requests[1]!.text)).toEqual({
      name: 'Web shop',
      code: 'web-shop',
      pipelineUrl: 'https://github.com/acme/shop',
      repositoryUrl: 'https://github.com/acme/shop',
      watching: true,
    });
    expect(dashboard.requests[1]!.headers).toMatchObject({
      'x-api-key': KEY,
      'content-type': 'application/json',
    });

    dashboard.requests.length = 0;
    const existing = await runCli([...args, '--app', 'shop'], {
      cwd: outside,
      env: { ...base(), ...GITHUB },
    });
    expect(existing.code).toBe(0);
    expect(existing.out).not.toContain('created app');
    expect(dashboard.requests.map((request) => request.path)).toEqual([
      '/api/test_results',
      '/api/test_results',
    ]);
    expect(dashboard.apps.get('shop')!.name).toBe('shop');
  });

  it('cannot create an app without a repository URL, and says how to create one without --create-app', async () => {
    const withFlag = await runCli(
      ['upload', JUNIT, '--app', 'nowhere', '--run', '3', '--create-app', 'Nowhere'],
      {
        cwd: outside,
        env: base(),
      },
    );
    expect(withFlag.code).toBe(1);
    expect(withFlag.err).toContain('cannot create app "Nowhere": its pipeline URL comes from the CI');
    const without = await runCli(['upload', JUNIT, '--app', 'nowhere', '--run', '3'], {
      cwd: outside,
      env: base(),
    });
    expect(without.code).toBe(1);
    expect(without.err).toMatch(/404 NOT_FOUND: .*nowhere.*POST \/api\/apps.*--create-app NAME/);
  });

  it('warns after a 401 that wrong keys block the address, and sends no further file', async () => {
    const result = await runCli(
      ['upload', JUNIT, reportPath('pytest-junit.xml'), '--app', 'shop', '--run', '2'],
      {
        cwd: outside,
        env: { DASHBOARD_URL: dashboard.baseUrl, DASHBOARD_API_KEY: 'wrong-key' },
      },
    );
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toContain(
      'jest-junit.xml: upload failed: 401 UNAUTHORIZED: Invalid or missing API key',
    );
    expect(result.err).toMatch(/warning: .*Three wrong keys.*BRUTE_FORCE_MAX_ATTEMPTS.*30 minutes/);
    expect(dashboard.uploads()).toHaveLength(1);
  });

  it('warns about a run that crashed before its tests ran and still exits 0', async () => {
    const folder = scratchFolder('cli-crash-');
    const crashed = join(folder, 'crashed.json');
    const message = 'SyntaxError: tests/cart.spec.ts: Unexpected token (12:4)\n\n  10 | test("cart", () => {';
    writeFileSync(
      crashed,
      JSON.stringify({ config: {}, suites: [], errors: [{ message, stack: message }], stats: {} }),
    );
    const result = await runCli(['upload', crashed, '--app', 'shop', '--run', '107'], {
      cwd: folder,
      env: base(),
    });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^crashed\.json: uploaded as #\d+ \(playwright, run 107\): 0 tests/);
    expect(result.err).toBe(
      'warning: run 107 crashed before its tests ran: SyntaxError: tests/cart.spec.ts: Unexpected token (12:4)\n',
    );
  });
});

describe('dashboard help', () => {
  const cwd = scratchFolder('cli-help-');

  it('lists every command for --help, -h and help, and exits 0', async () => {
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const result = await runCli(args, { cwd });
      expect(result.code).toBe(0);
      for (const command of ['serve', 'migrate', 'jobs list', 'jobs run', 'report', 'upload', 'help']) {
        expect(result.out).toContain(`  ${command}`);
      }
    }
  });

  it('describes upload and each of its flags for help upload, upload --help and upload -h', async () => {
    const answers = await Promise.all(
      [
        ['help', 'upload'],
        ['upload', '--help'],
        ['upload', 'report.xml', '-h'],
      ].map((args) => runCli(args, { cwd })),
    );
    for (const result of answers) {
      expect(result.code).toBe(0);
      expect(result.err).toBe('');
      expect(result.out).toBe(answers[0]!.out);
    }
    for (const flag of [
      '--app',
      '--run',
      '--attempt',
      '--commit',
      '--branch',
      '--author',
      '--triggered-by',
      '--url',
      '--root',
      '--create-app',
      '--timeout',
      '--help',
    ]) {
      expect(answers[0]!.out).toContain(flag);
    }
  });

  it('refuses an unknown command with 64', async () => {
    const result = await runCli(['uplaod'], { cwd });
    expect(result.code).toBe(64);
    expect(result.err).toMatch(/^unknown command "uplaod"\n\nUsage: dashboard/);
  });
});
