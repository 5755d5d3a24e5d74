import { describe, expect, it } from 'vitest';
import { aggregateRows, type SpecRow } from './aggregation.js';
import { specWhyOf } from './specs.repository.js';

const DATE = '2025-03-15';
const web = { id: 1, name: 'web' };
const sha = (run: number) => `c0ffee${String(run).padStart(34, '0')}`;
const runUrl = (run: number) => `https://cloud.cypress.io/projects/web/runs/${run}`;
const at = (day: number, minute = 0) =>
  `2025-03-${String(day).padStart(2, '0')}T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** A row of `spec` in run `run` (its commit and link follow the run number unless overridden). */
const row = (run: number, overrides: Record<string, unknown> = {}): SpecRow => ({
  project_name: 'web',
  run_number: run,
  created_at: at(1 + (run % 14), run % 60),
  status: 'passed',
  spec: 'login.cy.ts',
  flaky_tests: 0,
  commit_sha: sha(run),
  run_url: runUrl(run),
  ...overrides,
});

const specOf = (rows: SpecRow[], name = 'login.cy.ts') =>
  aggregateRows([web], rows, DATE).details[0]!.specs.find((spec) => spec.spec === name)!;

describe('spec history and links', () => {
  it('keeps the last 10 results by run number, oldest first, whatever order the rows came in', () => {
    const runs = Array.from({ length: 14 }, (_, i) => i + 1);
    const shuffled = [...runs.filter((n) => n % 2 === 0).reverse(), ...runs.filter((n) => n % 2 === 1)];
    const stat = specOf(
      shuffled.map((run) =>
        row(run, {
          status: run === 9 || run === 13 ? 'failed' : 'passed',
          flaky_tests: run === 10 ? 1 : 0,
        }),
      ),
    );
    expect(stat.history.map((result) => result.runNumber)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(stat.history.map((result) => result.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'failed',
      'flaky',
      'passed',
      'passed',
      'failed',
      'passed',
    ]);
    expect(stat.history[0]).toEqual({ runNumber: 5, status: 'passed', atMs: Date.parse(at(6, 5)) });
    expect(stat.lastRunUrl).toBe(runUrl(14));
    expect(stat.lastFailedRunNumber).toBe(13);
    expect(stat.lastFailedRunUrl).toBe(runUrl(13));
  });

  it('leaves noTests rows out of the history and counts a failed flaky run as failed', () => {
    const stat = specOf([
      row(1),
      row(2, { status: 'noTests' }),
      row(3, { status: 'failed', flaky_tests: 2 }),
    ]);
    expect(stat.history.map((result) => [result.runNumber, result.status])).toEqual([
      [1, 'passed'],
      [3, 'failed'],
    ]);
  });

  it('names the first commit of the failing streak and the last passing commit before it', () => {
    const stat = specOf([
      row(1, { status: 'failed' }),
      row(2),
      row(3),
      row(4, { status: 'failed' }),
      row(5, { status: 'failed' }),
    ]);
    expect(stat).toMatchObject({
      lastStatus: 'failed',
      firstFailedCommitSha: sha(4),
      lastPassedCommitSha: sha(3),
      lastFailedRunNumber: 5,
    });
  });

  it('has no first failed commit when the last result passed, and no passing commit when none is in the window', () => {
    expect(specOf([row(1, { status: 'failed' }), row(2)])).toMatchObject({
      firstFailedCommitSha: null,
      lastPassedCommitSha: sha(2),
      lastFailedRunNumber: 1,
    });
    expect(specOf([row(1, { status: 'failed' }), row(2, { status: 'failed' })])).toMatchObject({
      firstFailedCommitSha: sha(1),
      lastPassedCommitSha: null,
    });
  });

  it("takes a run's commit and link from its first row that names one; rows without them give null", () => {
    const stat = specOf([
      row(1, { commit_sha: '', run_url: undefined }),
      row(1, { spec: 'other.cy.ts', commit_sha: ' abc123 ', run_url: runUrl(1) }),
      row(2, { status: 'failed', commit_sha: undefined, run_url: null }),
    ]);
    expect(stat).toMatchObject({
      lastPassedCommitSha: 'abc123',
      firstFailedCommitSha: null,
      lastRunUrl: null,
      lastFailedRunUrl: null,
    });
  });

  it("keeps the first line of the first failure message of the spec's last failed run, cut to 300", () => {
    const long = `Expected ${'x'.repeat(400)}`;
    const stat = specOf([
      row(3, { status: 'failed', error_message: 'Old failure' }),
      row(5, { status: 'failed', error_message: '\n  Timed out retrying after 4000ms\n  at cy.get' }),
      row(5, { status: 'failed', error_message: 'A later message of the same run' }),
      row(4, { status: 'failed', error_message: 'Out of order, older' }),
      row(5, { status: 'passed', error_message: 'not a failure' }),
    ]);
    expect(stat.lastError).toEqual({ message: 'Timed out retrying after 4000ms' });
    expect(specOf([row(1, { status: 'failed', error_message: long })]).lastError!.message).toHaveLength(300);
  });

  it('has no last error when the last failed run carried no text (the Cypress export)', () => {
    expect(
      specOf([row(1, { status: 'failed', error_message: 'Earlier' }), row(2, { status: 'failed' })])
        .lastError,
    ).toBeNull();
    expect(specOf([row(1, { status: 'failed' })]).lastError).toBeNull();
    expect(specOf([row(1), row(2, { error_message: 'passed rows carry none' })]).lastError).toBeNull();
  });
});

describe('the stored history read back', () => {
  const none = {
    history: [],
    lastRunUrl: null,
    lastFailedRunNumber: null,
    lastFailedRunUrl: null,
    firstFailedCommitSha: null,
    lastPassedCommitSha: null,
    lastError: null,
  };

  it('gives reports generated before it was kept (or unreadable text) no history and nulls', () => {
    expect(specWhyOf(null)).toEqual(none);
    expect(specWhyOf('not json')).toEqual(none);
    expect(specWhyOf('[1,2]')).toEqual(none);
  });

  it('expands stored results and leaves out the ones it cannot read', () => {
    const text = JSON.stringify({
      history: [
        [7, 'k', Date.parse(at(3))],
        [8, 'x', 0],
        [9, 'f', 1e20],
        'junk',
        [10, 'p', Date.parse(at(4))],
      ],
      lastError: { message: 'Boom' },
      firstFailedCommitSha: 'abc',
    });
    expect(specWhyOf(text)).toEqual({
      ...none,
      history: [
        { runNumber: 7, status: 'flaky', at: at(3) },
        { runNumber: 10, status: 'passed', at: at(4) },
      ],
      lastError: { message: 'Boom' },
      firstFailedCommitSha: 'abc',
    });
  });
});
