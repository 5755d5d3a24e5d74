import { describe, expect, it } from 'vitest';
import { defaultBranchStreak, flakeOf, lastPassingCommit, type PastResult } from './verdict-history.js';

let clock = 0;
const result = (runNumber: number, status: PastResult['status'], overrides: Partial<PastResult> = {}) => ({
  runNumber,
  attempt: 1,
  createdAt: new Date(Date.UTC(2026, 10, 1) + (clock++ + runNumber) * 60_000).toISOString(),
  commitSha: `sha${runNumber}`,
  branch: 'main',
  status,
  ...overrides,
});

describe('default-branch streak', () => {
  it('is null without history, not failing after a pass, and dates a failing streak from its start', () => {
    expect(defaultBranchStreak([])).toBeNull();
    expect(defaultBranchStreak([result(1, 'failed'), result(2, 'passed')])).toEqual({
      latestFailed: false,
      since: null,
    });
    const streak = [result(1, 'passed'), result(2, 'failed'), result(3, 'failed')];
    expect(defaultBranchStreak(streak)).toEqual({ latestFailed: true, since: streak[1]!.createdAt });
  });

  it('takes the latest attempt of a run', () => {
    const rerun = [result(5, 'failed'), result(5, 'passed', { attempt: 2 })];
    expect(defaultBranchStreak(rerun)!.latestFailed).toBe(false);
  });
});

describe('flake rate', () => {
  it('counts runs passed on a retry and failures on a commit that also passed', () => {
    const results = [
      result(1, 'passed'),
      result(2, 'flaky'),
      result(3, 'failed', { commitSha: 'same' }),
      result(4, 'passed', { commitSha: 'same' }),
      result(5, 'failed'),
      result(6, 'failed'),
      result(6, 'passed', { attempt: 2 }),
    ];
    // Run 2 (retry), runs 3 and 4 (same commit), run 6 (passed in attempt 2): 4 of 6.
    expect(flakeOf(results)).toEqual({ rate: 4 / 6, runs: 6 });
    expect(flakeOf([])).toBeNull();
  });
});

describe('last passing commit', () => {
  it('is the newest run that passed with a commit', () => {
    expect(
      lastPassingCommit([result(1, 'passed'), result(2, 'passed', { commitSha: null }), result(3, 'failed')]),
    ).toBe('sha1');
    expect(lastPassingCommit([result(1, 'failed')])).toBeNull();
  });
});
