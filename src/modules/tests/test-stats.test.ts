import { describe, expect, it } from 'vitest';
import { type ResultOfRun, statsOf } from './test-stats.js';

let uploadId = 0;
const result = (runNumber: number, status: ResultOfRun['status'], extra: Partial<ResultOfRun> = {}) => ({
  uploadId: ++uploadId,
  runNumber,
  attempt: 1,
  status,
  durationMs: runNumber * 10,
  at: `2026-11-${String(runNumber).padStart(2, '0')}T10:00:00.000Z`,
  commitSha: `c${runNumber}`,
  runUrl: `https://ci/${runNumber}`,
  ...extra,
});

describe('a test over the runs of a window', () => {
  it('counts runs by their outcome, rates, durations and the failing streak', () => {
    const stats = statsOf([
      result(3, 'failed'),
      result(1, 'passed'),
      result(2, 'skipped'),
      result(4, 'failed'),
    ])!;
    expect(stats).toMatchObject({
      runs: 4,
      passed: 1,
      failed: 2,
      skipped: 1,
      flaky: 0,
      passRate: 0.3333,
      flakeRate: 0,
      avgDurationMs: Math.round((10 + 30 + 40) / 3),
      p90DurationMs: 40,
      lastStatus: 'failed',
      lastRunNumber: 4,
      lastRunUrl: 'https://ci/4',
      failingSince: '2026-11-03T10:00:00.000Z',
      flakyEvidence: [],
      isFlaky: false,
    });
    expect(stats.history.map((point) => point.runNumber)).toEqual([1, 2, 3, 4]);
    expect(stats.lastFailedUploadId).toBe(uploadId);
  });

  it('is flaky by retry, by a passing later attempt, and by the same commit in another run', () => {
    const stats = statsOf([
      result(1, 'flaky'),
      result(2, 'failed', { attempt: 1 }),
      result(2, 'passed', { attempt: 2 }),
      result(3, 'failed', { commitSha: 'same' }),
      result(4, 'passed', { commitSha: 'same' }),
      result(5, 'passed'),
    ])!;
    expect(stats).toMatchObject({ runs: 5, passed: 2, flaky: 2, failed: 1, flakeRate: 0.6, isFlaky: true });
    expect(stats.flakyEvidence).toEqual([
      { runNumber: 3, runUrl: 'https://ci/3', commitSha: 'same', kind: 'same_commit' },
      { runNumber: 2, runUrl: 'https://ci/2', commitSha: 'c2', kind: 'same_commit' },
      { runNumber: 1, runUrl: 'https://ci/1', commitSha: 'c1', kind: 'retry' },
    ]);
    expect(stats.history.find((point) => point.runNumber === 2)).toMatchObject({
      attempt: 2,
      status: 'flaky',
    });
    expect(stats.failingSince).toBeNull();
  });

  it('keeps the last 20 runs and 5 pieces of evidence, and says nothing without results', () => {
    const many = Array.from({ length: 30 }, (_, index) => result(index + 1, 'flaky'));
    const stats = statsOf(many)!;
    expect(stats.history).toHaveLength(20);
    expect(stats.history[0]!.runNumber).toBe(11);
    expect(stats.flakyEvidence.map((evidence) => evidence.runNumber)).toEqual([30, 29, 28, 27, 26]);
    expect(statsOf([])).toBeUndefined();
  });
});

describe('the p90 duration', () => {
  it('is the nearest-rank 90th percentile of the runs that ran, whatever their order and repeats', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const size of [1, 2, 3, 9, 10, 11, 57, 280]) {
      const durations = Array.from({ length: size }, () => Math.floor(next() * (size % 3 === 0 ? 5 : 5000)));
      const stats = statsOf(
        durations.map((durationMs, index) => result(index + 1, 'passed', { durationMs })),
      )!;
      const sorted = [...durations].sort((a, b) => a - b);
      expect(stats.p90DurationMs).toBe(sorted[Math.max(0, Math.ceil(0.9 * size) - 1)]);
    }
  });
});

describe('the order of the results', () => {
  it('changes no figure when each run has one result: in time order (ties included) or reversed', () => {
    let seed = 11;
    const next = (bound: number) => Math.floor(((seed = (seed * 69069 + 1) % 2 ** 32) / 2 ** 32) * bound);
    const statuses = ['passed', 'failed', 'flaky', 'skipped'] as const;
    for (let round = 0; round < 20; round++) {
      const inOrder = Array.from({ length: 1 + next(60) }, (_, index) =>
        result(index + 1, statuses[next(4)]!, {
          durationMs: next(1000),
          at: `2026-11-01T${String(Math.floor(index / 3)).padStart(2, '0')}:00:00.000Z`,
          commitSha: `c${next(8)}`,
        }),
      );
      expect(statsOf([...inOrder].reverse())).toEqual(statsOf(inOrder));
    }
  });
});
