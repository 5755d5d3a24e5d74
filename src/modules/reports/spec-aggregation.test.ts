import { describe, expect, it } from 'vitest';
import { aggregateRows, type SpecRow } from './aggregation.js';

const DATE = '2025-03-15';
const web = { id: 1, name: 'web' };

const row = (overrides: Record<string, unknown>): SpecRow => ({
  project_name: 'web',
  run_number: 1,
  created_at: '2025-03-10T10:00:00.000Z',
  status: 'passed',
  spec: 'login.cy.ts',
  total_tests: 3,
  pass_tests: 3,
  fail_tests: 0,
  flaky_tests: 0,
  ...overrides,
});

const at = (day: number, hour = 10) =>
  `2025-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

function specsOf(rows: SpecRow[]) {
  const [detail] = aggregateRows([web], rows, DATE).details;
  return detail!.specs;
}

const specNamed = (rows: SpecRow[], name: string) => specsOf(rows).find((spec) => spec.spec === name)!;

describe('per-spec aggregation', () => {
  it('counts a spec run as failed when any of its counted rows is not passed', () => {
    const stat = specNamed(
      [
        row({ run_number: 1, status: 'passed' }),
        row({ run_number: 2, status: 'passed', created_at: at(11) }),
        row({ run_number: 2, status: 'failed', created_at: at(11, 11) }),
        row({ run_number: 3, status: 'passed', created_at: at(12) }),
      ],
      'login.cy.ts',
    );
    expect(stat).toMatchObject({
      totalRuns: 3,
      failedRuns: 1,
      successRate: 0.6667,
      lastStatus: 'passed',
      lastRunNumber: 3,
      lastRunAt: at(12),
      lastFailedAt: at(11, 11),
      failingSince: null,
    });
  });

  it('merges several rows of one spec in one run, wherever they arrive in the stream', () => {
    const stat = specNamed(
      [
        row({ run_number: 5, created_at: at(12, 8) }),
        row({ run_number: 6, created_at: at(13, 8) }),
        row({ run_number: 5, created_at: at(12, 9), status: 'failed' }),
        row({ run_number: 6, created_at: at(13, 7) }),
      ],
      'login.cy.ts',
    );
    expect(stat).toMatchObject({
      totalRuns: 2,
      failedRuns: 1,
      lastStatus: 'passed',
      lastFailedAt: at(12, 9),
    });
    expect(stat.lastRunAt).toBe(at(13, 8));
  });

  it('ignores noTests rows: they neither make a run nor fail or pass one', () => {
    const specs = specsOf([
      row({ run_number: 1, spec: 'empty.cy.ts', status: 'noTests', created_at: at(9) }),
      row({ run_number: 2, spec: 'empty.cy.ts', status: 'noTests', created_at: at(10) }),
      row({ run_number: 1, status: 'failed', created_at: at(9) }),
      row({ run_number: 2, status: 'noTests', created_at: at(10) }),
    ]);
    expect(specs.find((spec) => spec.spec === 'login.cy.ts')).toMatchObject({
      totalRuns: 1,
      failedRuns: 1,
      lastStatus: 'failed',
      lastRunNumber: 1,
      lastRunAt: at(9),
      failingSince: at(9),
    });
    expect(specs.find((spec) => spec.spec === 'empty.cy.ts')).toEqual({
      spec: 'empty.cy.ts',
      totalRuns: 0,
      failedRuns: 0,
      flakyRuns: 0,
      successRate: 0,
      lastStatus: 'passed',
      lastRunNumber: null,
      lastRunAt: at(10),
      lastFailedAt: null,
      failingSince: null,
      avgDurationMs: null,
      lastFailureAuthor: null,
      history: [],
      lastRunUrl: null,
      lastFailedRunNumber: null,
      lastFailedRunUrl: null,
      firstFailedCommitSha: null,
      lastPassedCommitSha: null,
      lastError: null,
    });
  });

  it('ignores rows without a run number', () => {
    const stat = specNamed(
      [row({ run_number: 1 }), row({ run_number: null, status: 'failed' }), row({ run_number: undefined })],
      'login.cy.ts',
    );
    expect(stat).toMatchObject({ totalRuns: 1, failedRuns: 0, lastStatus: 'passed' });
  });

  it('dates failingSince from the earliest row of the oldest run of the unbroken failing streak', () => {
    const stat = specNamed(
      [
        row({ run_number: 7, status: 'failed', created_at: at(14) }),
        row({ run_number: 3, status: 'failed', created_at: at(5) }),
        row({ run_number: 4, status: 'passed', created_at: at(6) }),
        row({ run_number: 5, status: 'failed', created_at: at(8, 12) }),
        row({ run_number: 5, status: 'passed', created_at: at(8, 9) }),
        row({ run_number: 6, status: 'errored', created_at: at(9) }),
      ],
      'login.cy.ts',
    );
    expect(stat).toMatchObject({
      totalRuns: 5,
      failedRuns: 4,
      lastStatus: 'failed',
      lastRunNumber: 7,
      lastFailedAt: at(14),
      failingSince: at(8, 9),
    });
  });

  it('counts flaky runs and takes the failure author of the highest-numbered failed run', () => {
    const stat = specNamed(
      [
        row({ run_number: 1, status: 'failed', commit_author_name: 'Ada' }),
        row({ run_number: 2, flaky_tests: 2, commit_author_name: 'Grace' }),
        row({ run_number: 3, status: 'failed', flaky_tests: 1, commit_author_name: 'Linus' }),
        row({ run_number: 4, commit_author_name: 'Ken' }),
      ],
      'login.cy.ts',
    );
    expect(stat).toMatchObject({
      flakyRuns: 2,
      failedRuns: 2,
      lastFailureAuthor: 'Linus',
      lastStatus: 'passed',
    });
  });

  it('averages spec_duration over the counted rows that carry one, rounded', () => {
    const stat = specNamed(
      [
        row({ run_number: 1, spec_duration: 1000 }),
        row({ run_number: 2, spec_duration: '2001' }),
        row({ run_number: 3 }),
        row({ run_number: 4, spec_duration: null }),
        row({ run_number: 5, status: 'noTests', spec_duration: 90_000 }),
        row({ run_number: 6, spec_duration: 'slow' }),
      ],
      'login.cy.ts',
    );
    expect(stat.avgDurationMs).toBe(1501);
    expect(specNamed([row({})], 'login.cy.ts').avgDurationMs).toBeNull();
  });

  it('orders failing specs first, then failed runs, flaky runs and name', () => {
    const specs = specsOf([
      row({ spec: 'b.cy.ts', run_number: 1, status: 'failed' }),
      row({ spec: 'b.cy.ts', run_number: 2 }),
      row({ spec: 'a.cy.ts', run_number: 2, flaky_tests: 1 }),
      row({ spec: 'c.cy.ts', run_number: 2 }),
      row({ spec: 'z.cy.ts', run_number: 2, status: 'failed' }),
      row({ spec: 'y.cy.ts', run_number: 1, status: 'failed' }),
      row({ spec: 'y.cy.ts', run_number: 2, status: 'failed' }),
    ]);
    expect(specs.map((spec) => spec.spec)).toEqual(['y.cy.ts', 'z.cy.ts', 'b.cy.ts', 'a.cy.ts', 'c.cy.ts']);
  });

  it('keeps exact instants for rows at the very start of the window', () => {
    const stat = specNamed(
      [
        row({ run_number: 1, status: 'noTests', created_at: '2025-03-01T00:00:00.000Z' }),
        row({ run_number: 1, status: 'noTests', created_at: '2025-03-01T00:00:05.000Z' }),
      ],
      'login.cy.ts',
    );
    expect(stat.lastRunAt).toBe('2025-03-01T00:00:05.000Z');
  });

  it('reads instants exactly across a leap day and a month end', () => {
    const [detail] = aggregateRows(
      [web],
      [
        row({ run_number: 1, status: 'failed', created_at: '2024-02-29T23:59:59.999Z' }),
        row({ run_number: 2, status: 'failed', created_at: '2024-03-01T00:00:00.001Z' }),
      ],
      '2024-03-05',
    ).details;
    expect(detail!.specs[0]).toMatchObject({
      failingSince: '2024-02-29T23:59:59.999Z',
      lastRunAt: '2024-03-01T00:00:00.001Z',
    });
  });

  it('stays correct across thousands of spec runs in random order', () => {
    const rows: SpecRow[] = [];
    for (let run = 1; run <= 300; run += 1) {
      for (let spec = 0; spec < 60; spec += 1) {
        rows.push(
          row({ run_number: run, spec: `s${spec}`, status: run > 290 && spec === 7 ? 'failed' : 'passed' }),
        );
      }
    }
    for (let i = rows.length - 1; i > 0; i -= 1) {
      const j = (i * 7919) % (i + 1);
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    const specs = specsOf(rows);
    expect(specs).toHaveLength(60);
    expect(specs[0]).toMatchObject({ spec: 's7', totalRuns: 300, failedRuns: 10, lastStatus: 'failed' });
    expect(specs.slice(1).every((spec) => spec.totalRuns === 300 && spec.failedRuns === 0)).toBe(true);
  });
  it('gives each row to its own spec when the order of specs changes from run to run', () => {
    const orders = [['a', 'b', 'c'], ['a', 'c', 'b'], ['c', 'c', 'a'], ['b'], ['a', 'b', 'c']];
    const rows = orders.flatMap((specs, index) =>
      specs.map((spec, position) =>
        row({
          run_number: index + 1,
          spec,
          created_at: at(5 + index, 10 + position),
          status: spec === 'c' && index === 2 && position === 1 ? 'failed' : 'passed',
        }),
      ),
    );
    const totals = Object.fromEntries(
      specsOf(rows).map((spec) => [spec.spec, [spec.totalRuns, spec.failedRuns]]),
    );
    expect(totals).toEqual({ a: [4, 0], b: [4, 0], c: [4, 1] });
    // The same rows with every run's specs in reverse order give the same statistics.
    const reversed = orders.flatMap((_, index) =>
      rows.filter((candidate) => candidate.run_number === index + 1).reverse(),
    );
    expect(specsOf(reversed)).toEqual(specsOf(rows));
  });
});

describe('app figures that come from the specs', () => {
  it('counts the day figures from runs whose latest row falls on the report date', () => {
    const [detail] = aggregateRows(
      [web],
      [
        row({ run_number: 1, created_at: at(14, 23) }),
        row({ run_number: 1, created_at: at(15, 0), spec: 'b' }),
        row({ run_number: 2, created_at: at(15, 9), status: 'failed' }),
        row({ run_number: 3, created_at: at(14, 9) }),
      ],
      DATE,
    ).details;
    expect(detail!.day).toEqual({ totalRuns: 2, passedRuns: 1, failedRuns: 1 });
  });

  it('lists up to ten specs failing in the last run, by name, with the last failure author', () => {
    const rows = Array.from({ length: 12 }, (_, i) =>
      row({
        run_number: 9,
        spec: `spec-${String(i).padStart(2, '0')}`,
        status: 'failed',
        commit_author_name: 'Ada',
      }),
    );
    rows.push(row({ run_number: 8, spec: 'old.cy.ts', status: 'failed', commit_author_name: 'Bob' }));
    const [detail] = aggregateRows([web], rows, DATE).details;
    expect(detail!.failingSpecs).toEqual(
      Array.from({ length: 10 }, (_, i) => `spec-${String(i).padStart(2, '0')}`),
    );
    expect(detail!.lastFailureAuthor).toBe('Ada');
  });
});
