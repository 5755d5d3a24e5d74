import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeDashboard } from '../../fakes/fake-dashboard.js';
import { freePort } from '../../support/free-port.js';
import { reportPath, runCli, scratchFolder } from './cli-process.js';
import { CIRCLE, dashboardEnv, GITHUB, JUNIT, KEY, resetWire, startWire } from './upload-cli-support.js';

// What `dashboard upload` tells its user: an unreachable dashboard, an app it creates or cannot,
// a wrong key, a run that crashed.

describe('dashboard upload on the wire', () => {
  let dashboard: FakeDashboard;
  let outside: string;
  const base = () => dashboardEnv(dashboard);

  beforeAll(async () => {
    ({ dashboard, outside } = await startWire());
  });
  afterAll(async () => dashboard.close());
  beforeEach(() => resetWire(dashboard));

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
