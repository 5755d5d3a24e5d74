import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveServer, type LiveServer } from '../../support/live-server.js';
import { TEST_KEY, testConfig } from '../../support/test-app.js';
import { brokerThatIsDown } from '../../support/test-container.js';
import { jobsCommand } from '../../../src/cli/jobs-command.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) },
    out,
    err,
  };
}

describe('dashboard jobs', () => {
  let server: LiveServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('lists the jobs as a table or JSON', async () => {
    server = await startLiveServer();
    const config = testConfig({ API_BASE_URL: server.baseUrl });
    const table = capture();
    expect(await jobsCommand(['list'], config, table.io)).toBe(0);
    expect(table.out[0]).toMatch(/^NAME\s+SCHEDULE\s+LAST RUN\s+RESULT\s+NEXT RUN$/);
    expect(table.out.slice(1, 7).map((line) => line.split(/\s+/)[0])).toEqual([
      'e2e-report',
      'pr-management',
      'manual-tickets-reminder',
      'delete-completed-todos',
      'quarantine-review',
      'results-retention',
    ]);
    expect(table.out[6]).toContain('30 3 * * *');
    expect(table.out[4]).toContain('0 2 * * 0');
    const json = capture();
    expect(await jobsCommand(['list', '--json'], config, json.io)).toBe(0);
    expect(JSON.parse(json.out.join('\n'))).toHaveLength(6);
  });

  it('runs a job, waits for its result, and reports failures and unknown names', async () => {
    server = await startLiveServer({ deps: { broker: brokerThatIsDown() } });
    await server.client.todos.create({ title: 'done', isCompleted: true });
    const config = testConfig({ API_BASE_URL: server.baseUrl });
    const ok = capture();
    expect(await jobsCommand(['run', 'delete-completed-todos', '--wait'], config, ok.io, 50)).toBe(0);
    expect(ok.out[0]).toMatch(/^delete-completed-todos: started \(run \d+ at .+\)$/);
    expect(ok.out[1]).toMatch(/^delete-completed-todos: success in \d+ ms$/);
    expect((await server.client.todos.list()).data).toEqual([]);

    // The broker of this test server does not answer: the report job fails, and the exit code says so.
    const failed = capture();
    expect(await jobsCommand(['run', 'e2e-report', '--wait'], config, failed.io, 50)).toBe(1);
    expect(failed.out[1]).toMatch(/^e2e-report: failed in \d+ ms: The message broker does not answer/);

    const unknown = capture();
    expect(await jobsCommand(['run', 'nope'], config, unknown.io)).toBe(1);
    expect(unknown.err[0]).toContain('Unknown job "nope"');
    expect(await jobsCommand(['run'], config, capture().io)).toBe(64);
    expect(await jobsCommand(['frobnicate'], config, capture().io)).toBe(64);
  });

  it('says where it looked when the API cannot be reached or refuses the key', async () => {
    server = await startLiveServer();
    const badKey = capture();
    const refused = await jobsCommand(
      ['list'],
      testConfig({ API_BASE_URL: server.baseUrl, API_SECURITY_KEY: 'wrong-key-0123456789abcdefghijklmnop' }),
      badKey.io,
    );
    expect(refused).toBe(77);
    expect(badKey.err[0]).toContain('API_SECURITY_KEY');
    const address = server.baseUrl;
    await server.close();
    server = undefined;
    const down = capture();
    expect(await jobsCommand(['list'], testConfig({ API_BASE_URL: address }), down.io)).toBe(69);
    expect(down.err[0]).toContain(address);
  });

  it('is wired into the dashboard CLI', async () => {
    server = await startLiveServer();
    const output = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'jobs', 'list'], {
        env: {
          ...process.env,
          API_BASE_URL: server!.baseUrl,
          API_SECURITY_KEY: TEST_KEY,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(output.code).toBe(0);
    expect(output.stdout).toContain('manual-tickets-reminder');
  });
});
