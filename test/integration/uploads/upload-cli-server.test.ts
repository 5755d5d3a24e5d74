import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadCommand } from '../../../src/cli/upload-command.js';
import { DIALECTS } from '../../support/databases.js';
import { startLiveServer, type LiveServer } from '../../support/live-server.js';
import { TEST_KEY } from '../../support/test-app.js';
import { checkoutWithCommit, reportPath, scratchFolder } from './cli-process.js';

// `dashboard upload` against the real service over HTTP, on both dialects.

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_RUN_NUMBER: '500',
  GITHUB_RUN_ID: '4242',
  GITHUB_REF_NAME: 'main',
  GITHUB_ACTOR: 'octocat',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SERVER_URL: 'https://github.com',
};

const capture = () => {
  const lines = { out: [] as string[], err: [] as string[] };
  const io = {
    out: (text: string) => void lines.out.push(text),
    err: (text: string) => void lines.err.push(text),
  };
  return { lines, io };
};

const uploadIdOf = (line: string | undefined) => Number(/ as #(\d+) /.exec(line ?? '')?.[1]);

describe.each(DIALECTS)('dashboard upload against the service (%s)', (dialect) => {
  let server: LiveServer;
  let folder: string;
  const env = (extra: Record<string, string> = {}) => ({
    DASHBOARD_URL: server.baseUrl,
    DASHBOARD_API_KEY: TEST_KEY,
    ...GITHUB,
    ...extra,
  });

  beforeAll(async () => {
    server = await startLiveServer({ dialect });
    folder = scratchFolder('cli-server-');
  });
  afterAll(async () => server.close());

  const appByCode = async (code: string) =>
    (await server.client.apps.listAll()).find((app) => app.code === code);

  it('creates a missing app with --create-app and uploads to it; an existing app is left as it was', async () => {
    const code = `web-${dialect}`;
    const first = capture();
    const args = [reportPath('jest-junit.xml'), '--app', code, '--create-app', 'Web shop'];
    expect(await uploadCommand(args, env(), first.io, folder)).toBe(0);
    expect(first.lines.err).toEqual([]);
    const app = await appByCode(code);
    expect(app).toMatchObject({
      name: 'Web shop',
      code,
      pipelineUrl: 'https://github.com/acme/shop',
      repositoryUrl: 'https://github.com/acme/shop',
      watching: true,
    });
    const stored = await server.client.testResults.get(uploadIdOf(first.lines.out[1]));
    expect(stored.data).toMatchObject({ appId: app!.id, runNumber: 500, tests: 5 });

    const again = capture();
    const renamed = [reportPath('pytest-junit.xml'), '--app', code, '--create-app', 'Another name'];
    expect(await uploadCommand(renamed, env({ GITHUB_REPOSITORY: 'acme/other' }), again.io, folder)).toBe(0);
    expect(again.lines.out).toEqual([
      expect.stringMatching(/^pytest-junit\.xml: uploaded as #\d+ \(junit, run 500\)/),
    ]);
    const { name, pipelineUrl, repositoryUrl, watching, updatedAt } = app!;
    expect(await appByCode(code)).toMatchObject({ name, pipelineUrl, repositoryUrl, watching, updatedAt });
  });

  it('uploads a gzipped .xml.gz as the report it holds', async () => {
    const shop = await server.client.apps.create({
      name: 'gz',
      code: `gz-${dialect}`,
      pipelineUrl: 'https://ci.example.com/p',
    });
    const gzipped = join(folder, 'jest-junit.xml.gz');
    writeFileSync(gzipped, gzipSync(readFileSync(reportPath('jest-junit.xml'))));
    const { lines, io } = capture();
    expect(await uploadCommand([gzipped, '--app', shop.data.code], env(), io, folder)).toBe(0);
    expect(lines.err).toEqual([]);
    expect(lines.out).toEqual([
      expect.stringMatching(
        /^jest-junit\.xml\.gz: uploaded as #\d+ \(junit, run 500\): 5 tests, 3 passed, 1 failed/,
      ),
    ]);
  });

  it('warns after a 401 that three wrong keys block the address for 30 minutes', async () => {
    const { lines, io } = capture();
    const code = await uploadCommand(
      [reportPath('jest-junit.xml'), reportPath('pytest-junit.xml'), '--app', 'any'],
      env({ DASHBOARD_API_KEY: 'not-the-key' }),
      io,
      folder,
    );
    expect(code).toBe(1);
    expect(lines.out).toEqual([]);
    expect(lines.err).toEqual([
      expect.stringMatching(/jest-junit\.xml: upload failed: 401 UNAUTHORIZED/),
      expect.stringMatching(/^warning: .*Three wrong keys .*BRUTE_FORCE_MAX_ATTEMPTS.* 30 minutes/),
    ]);
  });

  // These need the service side of issue #33 (attempt, triggeredBy, root, crashed runs).
  describe('with re-run attempts, authors, the checkout root and crashed runs', () => {
    let code: string;
    beforeAll(async () => {
      code = (
        await server.client.apps.create({
          name: 'runs',
          code: `runs-${dialect}`,
          pipelineUrl: 'https://ci.example.com/p',
        })
      ).data.code;
    });

    it("sends the attempt, who triggered the run and the commit's author, and the service stores them", async () => {
      const checkout = checkoutWithCommit('Ada Lovelace');
      const { lines, io } = capture();
      const runEnv = env({ GITHUB_RUN_ATTEMPT: '2', GITHUB_SHA: checkout.sha, GITHUB_RUN_NUMBER: '501' });
      expect(
        await uploadCommand([reportPath('jest-junit.xml'), '--app', code], runEnv, io, checkout.folder),
      ).toBe(0);
      const id = uploadIdOf(lines.out[0]);
      const { data } = await server.client.testResults.get(id);
      expect(data).toMatchObject({ attempt: 2, triggeredBy: 'octocat', status: 'ok', errors: [] });
      const row = await server.database.db
        .selectFrom('test_result_uploads')
        .select(['author'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.author).toBe('Ada Lovelace');
    });

    it('stores specs relative to the CI workspace', async () => {
      const workspace = '/home/runner/work/shop/shop';
      const absolute = join(folder, 'mocha-absolute.xml');
      const xml = readFileSync(reportPath('mocha-junit.xml'), 'utf8').replaceAll(
        'suites/mocha/',
        `${workspace}/suites/mocha/`,
      );
      writeFileSync(absolute, xml);
      const { lines, io } = capture();
      const runEnv = env({ GITHUB_WORKSPACE: workspace, GITHUB_RUN_NUMBER: '502' });
      expect(await uploadCommand([absolute, '--app', code], runEnv, io, folder)).toBe(0);
      const { data } = await server.client.testResults.get(uploadIdOf(lines.out[0]));
      expect(data.failures.map((failure) => failure.spec)).toEqual(['suites/mocha/checkout.spec.js']);
    });

    it('warns about a Playwright run that crashed before its tests ran and exits 0', async () => {
      const report = JSON.parse(readFileSync(reportPath('playwright.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      const message =
        'SyntaxError: tests/cart.spec.ts: Unexpected token, expected "," (12:4)\n\n  10 | test(\'cart\'';
      const crashed = join(folder, 'crashed.json');
      writeFileSync(
        crashed,
        JSON.stringify({
          ...report,
          suites: [],
          errors: [
            { message, stack: message, location: { file: 'tests/cart.spec.ts', line: 12, column: 4 } },
          ],
          stats: { ...(report.stats as object), expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
        }),
      );
      const { lines, io } = capture();
      expect(await uploadCommand([crashed, '--app', code, '--run', '107'], env(), io, folder)).toBe(0);
      expect(lines.out).toEqual([
        expect.stringMatching(/^crashed\.json: uploaded as #\d+ \(playwright, run 107\): 0 tests/),
      ]);
      expect(lines.err).toEqual([
        'warning: run 107 crashed before its tests ran: SyntaxError: tests/cart.spec.ts: Unexpected token, expected "," (12:4)',
      ]);
    });
  });
});
