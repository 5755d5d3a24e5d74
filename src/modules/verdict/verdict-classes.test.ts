import { describe, expect, it } from 'vitest';
import {
  byClassThenName,
  classify,
  countByClass,
  firstLine,
  type TestEvidence,
  verdictDigest,
  verdictStatus,
} from './verdict-classes.js';

const evidence = (overrides: Partial<TestEvidence> = {}): TestEvidence => ({
  testId: 't1',
  spec: 'cart.spec.ts',
  title: 'adds an item',
  outcome: 'failed',
  error: 'Expected 2',
  quarantine: null,
  flake: null,
  defaultBranch: null,
  lastPassSha: null,
  ...overrides,
});

describe('classify', () => {
  it('puts a quarantined test first, whatever else holds, with its ticket', () => {
    const result = classify(
      evidence({
        quarantine: { ticketKey: 'QA-1' },
        outcome: 'flaky',
        defaultBranch: { latestFailed: true, since: '2026-01-01T00:00:00.000Z' },
      }),
      0.05,
    );
    expect(result).toEqual({ class: 'quarantined', ticketKey: 'QA-1', since: null, flakeRate: null });
  });

  it('calls a test that passed on a retry known flaky', () => {
    expect(classify(evidence({ outcome: 'flaky' }), 0.05).class).toBe('known_flaky');
  });

  it('calls a test flaky on the default branch known flaky only from the threshold and 5 runs', () => {
    const at = (rate: number, runs: number) => classify(evidence({ flake: { rate, runs } }), 0.05);
    expect(at(0.05, 5)).toMatchObject({ class: 'known_flaky', flakeRate: 0.05 });
    expect(at(0.049, 20).class).toBe('new');
    expect(at(0.5, 4).class).toBe('new');
    expect(at(0.5, 4).flakeRate).toBe(0.5);
  });

  it('calls a test whose latest default-branch result failed failing there, since its streak began', () => {
    const since = '2026-11-20T10:00:00.000Z';
    expect(classify(evidence({ defaultBranch: { latestFailed: true, since } }), 0.05)).toMatchObject({
      class: 'failing_on_default_branch',
      since,
    });
    expect(classify(evidence({ defaultBranch: { latestFailed: false, since: null } }), 0.05).class).toBe(
      'new',
    );
  });
});

describe('status, counts and order', () => {
  it('fails on a new failure or an errored run only', () => {
    const counts = countByClass([{ class: 'known_flaky' }, { class: 'quarantined' }]);
    expect(counts).toEqual({ new: 0, failing_on_default_branch: 0, known_flaky: 1, quarantined: 1 });
    expect(verdictStatus(counts, false)).toBe('pass');
    expect(verdictStatus(counts, true)).toBe('fail');
    expect(verdictStatus(countByClass([{ class: 'new' }]), false)).toBe('fail');
  });

  it('orders by class (quarantined first), then spec and title', () => {
    const rows = [
      { class: 'new' as const, spec: 'a', title: 'x' },
      { class: 'quarantined' as const, spec: 'z', title: 'x' },
      { class: 'known_flaky' as const, spec: 'b', title: 'y' },
      { class: 'known_flaky' as const, spec: 'b', title: 'a' },
    ];
    expect(rows.sort(byClassThenName).map((row) => `${row.class}:${row.title}`)).toEqual([
      'quarantined:x',
      'known_flaky:a',
      'known_flaky:y',
      'new:x',
    ]);
  });

  it('digests what decides the feedback, in any order', () => {
    const one = verdictDigest({
      status: 'fail',
      errored: false,
      failures: [
        { testId: 'a', class: 'new' },
        { testId: 'b', class: 'known_flaky' },
      ],
    });
    const same = verdictDigest({
      status: 'fail',
      errored: false,
      failures: [
        { testId: 'b', class: 'known_flaky' },
        { testId: 'a', class: 'new' },
      ],
    });
    const other = verdictDigest({
      status: 'fail',
      errored: false,
      failures: [{ testId: 'a', class: 'new' }],
    });
    expect(one).toBe(same);
    expect(one).not.toBe(other);
  });

  it('keeps the first non-blank line of an error', () => {
    expect(firstLine('\n  Error: boom\n  at x')).toBe('Error: boom');
    expect(firstLine('')).toBeNull();
    expect(firstLine(null)).toBeNull();
    expect(firstLine('x'.repeat(600))!.length).toBe(500);
  });
});
