import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCypress, startFakeCypress } from '../../fakes/fake-cypress.js';
import { REPO_ROOT } from './processes.js';

const ROWS = 200_000; // about 40 MB of JSON
const HEAP_LIMIT_MB = 48;

/**
 * Memory must not grow with the size of the answer: the client and the aggregator run in a child
 * whose heap is capped below the size of the answer. Holding rows, or strings that pin the
 * parser's chunks, exhausts it.
 */
describe('streaming a large answer into the aggregator', () => {
  let fake: FakeCypress;
  beforeAll(async () => {
    fake = await startFakeCypress();
    fake.rowSource = function* () {
      for (let i = 0; i < ROWS; i += 1) {
        yield {
          project_name: `app-${Math.floor(i / 40) % 50}`,
          run_number: Math.floor(i / 2000),
          created_at: `2025-03-${String(1 + (i % 14)).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00.000Z`,
          status: i % 17 === 0 ? 'failed' : 'passed',
          // Each project has a catalogue of 200 specs and a run executes 40 of them, as a real
          // project does: per-spec statistics keep one entry per distinct spec (and a few
          // bytes per spec run), so a spec name unique to every row would measure the names.
          spec: `cypress/e2e/feature-${(Math.floor(i / 2000) * 40 + (i % 40)) % 200}/scenario.cy.ts`,
          total_tests: 12,
          pass_tests: 11,
          fail_tests: i % 17 === 0 ? 1 : 0,
          flaky_tests: 0,
          spec_duration: 1000 + (i % 5000),
          commit_author_name: `Author ${Math.floor(i / 2000) % 7}`,
          commit_branch: 'main',
        };
      }
    };
  });
  afterAll(async () => fake.close());

  it(`aggregates ${ROWS} rows within a ${HEAP_LIMIT_MB} MB heap`, async () => {
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_LIMIT_MB}`,
        '--import',
        'tsx',
        'test/integration/reports/stream-memory-child.ts',
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', FAKE_URL: fake.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) =>
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? signal)),
    );
    expect(code, output.slice(-2000)).toBe(0);
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual({
      rows: ROWS,
      runs: 100 * 50,
      specs: 200 * 50,
    });
  }, 120_000);
});
