import { describe, expect, it } from 'vitest';
import { aggregateRows, createAggregator, reportWindow, type SpecRow } from './aggregation.js';

const DATE = '2025-03-15';
const web = { id: 1, name: 'web' };
const api = { id: 2, name: 'api' };

const row = (overrides: SpecRow & Record<string, unknown>): SpecRow => ({
  project_name: 'web',
  run_number: 1,
  created_at: '2025-03-10T10:00:00.000Z',
  status: 'passed',
  spec: 'a.cy.ts',
  total_tests: 3,
  pass_tests: 3,
  fail_tests: 0,
  flaky_tests: 0,
  ...overrides,
});

describe('reportWindow', () => {
  it('spans the 14 days before the report date up to the date', () => {
    expect(reportWindow('2025-03-15')).toEqual({ startDate: '2025-03-01', endDate: '2025-03-15' });
    expect(reportWindow('2024-03-05')).toEqual({ startDate: '2024-02-20', endDate: '2024-03-05' });
  });
});

describe('aggregateRows', () => {
  it('counts a run passed only when every non-noTests row passed', () => {
    const result = aggregateRows(
      [web],
      [
        row({ run_number: 1, status: 'passed' }),
        row({ run_number: 1, status: 'noTests', spec: 'b' }),
        row({ run_number: 2, status: 'passed' }),
        row({ run_number: 2, status: 'failed', spec: 'b' }),
        row({ run_number: 3, status: 'errored' }),
      ],
      DATE,
    );
    expect(result.details).toEqual([
      expect.objectContaining({ appId: 1, totalRuns: 3, passedRuns: 1, failedRuns: 2, successRate: 0.3333 }),
    ]);
    expect(result.totals).toEqual({ totalRuns: 3, passedRuns: 1, failedRuns: 2, successRate: 0.3333 });
  });

  it('counts a run made only of noTests rows as passed', () => {
    const result = aggregateRows(
      [web],
      [row({ status: 'noTests' }), row({ status: 'noTests', spec: 'b' })],
      DATE,
    );
    expect(result.details[0]).toMatchObject({ totalRuns: 1, passedRuns: 1, lastRunStatus: 'passed' });
  });

  it('groups many rows of one run into one run', () => {
    const rows = Array.from({ length: 40 }, (_, i) => row({ spec: `s${i}.cy.ts` }));
    expect(aggregateRows([web], rows, DATE).details[0]).toMatchObject({ totalRuns: 1, passedRuns: 1 });
  });

  it('ignores rows without a run number, and unparseable ones', () => {
    const result = aggregateRows(
      [web],
      [
        row({ run_number: undefined, status: 'failed' }),
        row({ run_number: null, status: 'failed' }),
        row({ run_number: 'abc', status: 'failed' }),
        row({ created_at: 'not a date', run_number: 9, status: 'failed' }),
        row({ run_number: '7' }),
      ],
      DATE,
    );
    expect(result.details).toEqual([
      expect.objectContaining({ totalRuns: 1, passedRuns: 1, lastRunNumber: 7, lastRunStatus: 'passed' }),
    ]);
  });

  it('reads created_at in the canonical form and in any other form Date understands', () => {
    const result = aggregateRows(
      [web],
      [
        row({ run_number: 1, created_at: '2025-03-1xT10:00:00.000Z', status: 'failed' }),
        row({ run_number: 2, created_at: '2025-03-10T10:00:00.0000Z', status: 'failed' }),
        row({ run_number: 3, created_at: '2025-03-10T10:00:00Z' }),
        row({ run_number: 4, created_at: '2025-03-14T23:59:59.999+00:00' }),
        row({ run_number: 5, created_at: '2025-03-15T12:34:56.789Z' }),
      ],
      DATE,
    );
    expect(result.details[0]).toMatchObject({
      totalRuns: 4,
      failedRuns: 1,
      lastRunNumber: 5,
      lastRunAt: '2025-03-15T12:34:56.789Z',
      lastFailedRunAt: '2025-03-10T10:00:00.000Z',
    });
  });

  it('takes the last run by run number, whatever the order of rows', () => {
    const rows = [
      row({ run_number: 12, status: 'failed', created_at: '2025-03-12T08:00:00.000Z' }),
      row({ run_number: 3, status: 'passed', created_at: '2025-03-14T08:00:00.000Z' }),
      row({ run_number: 12, status: 'passed', created_at: '2025-03-12T09:30:00.000Z', spec: 'b' }),
      row({ run_number: 10, status: 'failed', created_at: '2025-03-11T08:00:00.000Z' }),
      row({ run_number: 12, status: 'passed', created_at: '2025-03-12T07:00:00.000Z', spec: 'c' }),
    ];
    const forward = aggregateRows([web], rows, DATE);
    const backward = aggregateRows([web], [...rows].reverse(), DATE);
    expect(forward).toEqual(backward);
    expect(forward.details[0]).toMatchObject({
      appId: 1,
      totalRuns: 3,
      passedRuns: 1,
      failedRuns: 2,
      flakyRuns: 0,
      successRate: 0.3333,
      lastRunStatus: 'failed',
      lastRunNumber: 12,
      lastRunAt: '2025-03-12T09:30:00.000Z',
      lastFailedRunAt: '2025-03-12T09:30:00.000Z',
    });
  });

  it('gives lastFailedRunAt from the highest-numbered failed run and null without failures', () => {
    const result = aggregateRows(
      [web, api],
      [
        row({ run_number: 5, status: 'failed', created_at: '2025-03-09T10:00:00.000Z' }),
        row({ run_number: 4, status: 'failed', created_at: '2025-03-13T10:00:00.000Z' }),
        row({ run_number: 6, status: 'passed', created_at: '2025-03-14T10:00:00.000Z' }),
        row({ project_name: 'api', run_number: 1 }),
      ],
      DATE,
    );
    expect(result.details[0]).toMatchObject({
      lastRunStatus: 'passed',
      lastRunAt: '2025-03-14T10:00:00.000Z',
      lastFailedRunAt: '2025-03-09T10:00:00.000Z',
    });
    expect(result.details[1]).toMatchObject({ appId: 2, lastFailedRunAt: null });
  });

  it('gives no detail to an app without rows and ignores rows of unknown projects', () => {
    const result = aggregateRows(
      [web, api],
      [row({ project_name: 'api' }), row({ project_name: 'other' })],
      DATE,
    );
    expect(result.details.map((detail) => detail.appId)).toEqual([2]);
    expect(result.totals.totalRuns).toBe(1);
  });

  it('returns zero totals and rate 0 when nothing ran', () => {
    expect(aggregateRows([web], [], DATE)).toEqual({
      totals: { totalRuns: 0, passedRuns: 0, failedRuns: 0, successRate: 0 },
      details: [],
      appsWithoutRuns: [1],
    });
    expect(aggregateRows([], [row({})], DATE).details).toEqual([]);
  });

  it('keeps rows inside the window edges and drops those outside', () => {
    const result = aggregateRows(
      [web],
      [
        row({ run_number: 1, created_at: '2025-02-28T23:59:59.999Z' }),
        row({ run_number: 2, created_at: '2025-03-01T00:00:00.000Z' }),
        row({ run_number: 3, created_at: '2025-03-15T23:59:59.999Z' }),
        row({ run_number: 4, created_at: '2025-03-16T00:00:00.000Z' }),
        row({ run_number: 5, created_at: '2025-03-15T22:00:00-05:00' }),
      ],
      DATE,
    );
    expect(result.details[0]).toMatchObject({ totalRuns: 2, lastRunNumber: 3 });
  });

  it('counts flaky runs (any row with flaky_tests > 0) once per run', () => {
    const result = aggregateRows(
      [web],
      [
        row({ run_number: 1, flaky_tests: 2 }),
        row({ run_number: 1, flaky_tests: 1, spec: 'b' }),
        row({ run_number: 2, flaky_tests: '3' }),
        row({ run_number: 3, flaky_tests: 0 }),
      ],
      DATE,
    );
    expect(result.details[0]).toMatchObject({ totalRuns: 3, flakyRuns: 2, passedRuns: 3 });
  });

  it('sums the totals over apps with 4-decimal rates', () => {
    const rows = [
      ...[1, 2, 3].map((n) => row({ run_number: n })),
      ...[1, 2, 3, 4, 5, 6].map((n) =>
        row({ project_name: 'api', run_number: n, status: n === 1 ? 'failed' : 'passed' }),
      ),
    ];
    const result = aggregateRows([web, api], rows, DATE);
    expect(result.details.map((detail) => detail.successRate)).toEqual([1, 0.8333]);
    expect(result.totals).toEqual({ totalRuns: 9, passedRuns: 8, failedRuns: 1, successRate: 0.8889 });
  });

  it('matches status case-insensitively and reports each app with the same name', () => {
    const twin = { id: 3, name: 'web' };
    const result = aggregateRows(
      [web, twin],
      [row({ status: 'PASSED' }), row({ status: 'NoTests', spec: 'b' })],
      DATE,
    );
    expect(result.details.map((detail) => [detail.appId, detail.lastRunStatus])).toEqual([
      [1, 'passed'],
      [3, 'passed'],
    ]);
  });

  it('streams: the aggregator counts rows and keeps one state per run', () => {
    const aggregator = createAggregator([web], DATE);
    for (let i = 0; i < 10_000; i += 1) aggregator.add(row({ run_number: i % 7, spec: `s${i}` }));
    expect(aggregator.rowsSeen).toBe(10_000);
    expect(aggregator.finish().details[0]).toMatchObject({ totalRuns: 7, lastRunNumber: 6 });
  });
});
