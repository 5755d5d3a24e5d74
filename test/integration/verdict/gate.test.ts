import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadCommand } from '../../../src/cli/upload-command.js';
import { DIALECTS } from '../../support/databases.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { TEST_KEY } from '../../support/test-app.js';
import {
  createFeedbackApp,
  daysAgo,
  fail,
  pass,
  playwrightReport,
  type PwTest,
  uploadRun,
} from './verdict-support.js';

const folder = mkdtempSync(join(tmpdir(), 'gate-'));
let fileCount = 0;
const reportFile = (tests: PwTest[] | string) => {
  const file = join(folder, `report-${++fileCount}.json`);
  writeFileSync(file, typeof tests === 'string' ? tests : playwrightReport(tests, new Date().toISOString()));
  return file;
};

async function gate(baseUrl: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await uploadCommand(
    [...args, '--gate'],
    { DASHBOARD_URL: baseUrl, DASHBOARD_API_KEY: TEST_KEY, PATH: process.env.PATH },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    folder,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe.each(DIALECTS)('dashboard upload --gate (%s)', (dialect) => {
  let server: LiveServer;
  let app: { id: number; code: string };

  beforeAll(async () => {
    server = await startLiveServer({ dialect, env: { DASHBOARD_PUBLIC_URL: 'https://dash.example.com' } });
    app = await createFeedbackApp(server, {});
    // On main, broken.spec.ts fails already.
    await uploadRun(server, app.code, 1, [pass('ok.spec.ts'), fail('broken.spec.ts')], {
      branch: 'main',
      commit: 'm1',
      createdAt: daysAgo(1),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('exits 1 on a new failure, naming it under its class with the run page', async () => {
    const file = reportFile([pass('ok.spec.ts'), fail('fresh.spec.ts', 'adds', 'Error: nope')]);
    const result = await gate(server.baseUrl, [file, '--app', app.code, '--run', '10', '--commit', 'f1']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('NEW FAILURES (1) (fails the gate)');
    expect(result.out).toContain('fresh.spec.ts › adds');
    expect(result.out).toContain(`Run page: https://dash.example.com/apps/${app.id}/runs/10`);
  });

  it('exits 0 when only known failures remain, 1 when --fail-on names their class', async () => {
    const file = reportFile([pass('ok.spec.ts'), fail('broken.spec.ts')]);
    const result = await gate(server.baseUrl, [file, '--app', app.code, '--run', '11']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('FAILING ON THE DEFAULT BRANCH (1)');
    const strict = await gate(server.baseUrl, [
      reportFile([pass('ok.spec.ts'), fail('broken.spec.ts')]),
      '--app',
      app.code,
      '--run',
      '12',
      '--fail-on',
      'new,failing_on_default_branch',
    ]);
    expect(strict.code).toBe(1);
  });

  it('exits 1 for an errored run even without failures', async () => {
    const crashed = JSON.stringify({
      config: {},
      suites: [],
      errors: [{ message: 'Error: global setup failed' }],
      stats: { startTime: new Date().toISOString(), duration: 1 },
    });
    const result = await gate(server.baseUrl, [reportFile(crashed), '--app', app.code, '--run', '13']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('the run errored');
  });

  it("exits with the files' own verdict when the dashboard is down", async () => {
    const down = 'http://127.0.0.1:9';
    const failing = await gate(down, [reportFile([fail('x.spec.ts')]), '--app', app.code, '--run', '14']);
    expect(failing.code).toBe(1);
    expect(failing.err).toContain("the gate exits with the files' own verdict");
    const passing = await gate(down, [reportFile([pass('x.spec.ts')]), '--app', app.code, '--run', '15']);
    expect(passing.code).toBe(0);
  });

  it('refuses an unknown --fail-on class as a usage error', async () => {
    const result = await gate(server.baseUrl, [
      reportFile([pass('a.spec.ts')]),
      '--app',
      app.code,
      '--run',
      '16',
      '--fail-on',
      'loud',
    ]);
    expect(result.code).toBe(64);
  });
});
