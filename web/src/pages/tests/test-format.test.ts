import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../../../src/client/index.js';
import {
  durationSeries,
  evidenceFromResults,
  evidenceSentence,
  latestError,
  retentionNote,
  testFromPath,
  testPath,
} from './test-format';

const result = (over: Partial<TestResult>): TestResult => ({
  uploadId: 1,
  runNumber: 1,
  attempt: 1,
  status: 'passed',
  durationMs: 100,
  at: '2026-11-28T01:00:00.000Z',
  commitSha: null,
  branch: 'main',
  runUrl: null,
  error: null,
  ...over,
});

describe('test page helpers', () => {
  it('links a test by its opaque id, and reads it back', () => {
    const path = testPath(3, 'a/b c?', '2026-11-28');
    expect(path).toBe('/apps/3/tests/a%2Fb%20c%3F?date=2026-11-28');
    expect(testFromPath(path.split('?')[0]!)).toEqual({ appId: 3, testId: 'a/b c?' });
    expect(testFromPath('/apps/0/tests/x')).toBeUndefined();
    expect(testFromPath('/apps/3/tests/%E0%A4%A')).toBeUndefined();
    expect(testFromPath('/apps/3/report')).toBeUndefined();
  });

  it('says why a test is flaky in words', () => {
    expect(evidenceSentence({ kind: 'retry', runNumber: 412, runUrl: null, commitSha: 'abc' })).toBe(
      'passed on retry in run #412',
    );
    expect(
      evidenceSentence({ kind: 'same_commit', runNumber: 413, runUrl: null, commitSha: '1a2b3c4d5e6f' }),
    ).toBe('failed and passed on commit 1a2b3c4 (run #413)');
  });

  it('finds the evidence in the results: a retry that passed, a commit that failed and passed', () => {
    const results = [
      result({ runNumber: 9, status: 'passed', commitSha: 'c2' }),
      result({ runNumber: 8, status: 'failed', commitSha: 'c2' }),
      result({ runNumber: 7, attempt: 2, status: 'passed', commitSha: 'c1' }),
      result({ runNumber: 7, attempt: 1, status: 'failed', commitSha: 'c1' }),
      result({ runNumber: 6, status: 'flaky', commitSha: 'c0' }),
      result({ runNumber: 5, status: 'failed', commitSha: 'c9' }),
      result({ runNumber: 4, status: 'skipped', commitSha: 'c1' }),
    ];
    expect(evidenceFromResults(results).map((e) => `${e.kind}#${e.runNumber}`)).toEqual([
      'same_commit#9',
      'same_commit#8',
      'retry#7',
      'retry#6',
    ]);
    expect(evidenceFromResults(results, 1)).toHaveLength(1);
    expect(evidenceFromResults([result({ status: 'failed' }), result({ runNumber: 2 })])).toEqual([]);
  });

  it('draws durations oldest first, a skipped run a gap, and finds the newest error', () => {
    const error = { message: 'boom', stack: '', location: null };
    const results = [
      result({ runNumber: 3, durationMs: 300 }),
      result({ runNumber: 2, durationMs: 0, status: 'skipped' }),
      result({ runNumber: 1, durationMs: 100, status: 'failed', error }),
    ];
    expect(durationSeries(results)).toEqual([
      { runNumber: 1, ms: 100 },
      { runNumber: 2, ms: null },
      { runNumber: 3, ms: 300 },
    ]);
    expect(latestError(results)?.runNumber).toBe(1);
  });
});

describe("the retention note under a report's tests", () => {
  const day = (iso: string) => iso.slice(0, 10);
  it('says nothing while the window lies within the retention', () => {
    expect(retentionNote(undefined, day)).toBeNull();
    expect(
      retentionNote({ days: 90, oldestKeptAt: '2026-03-02T00:00:00.000Z', windowComplete: true }, day),
    ).toBeNull();
  });

  it('names the retention and the oldest kept day when the window reaches past it', () => {
    expect(
      retentionNote({ days: 90, oldestKeptAt: '2026-03-02T00:00:00.000Z', windowComplete: false }, day),
    ).toBe(
      "Results are kept 90 days: runs of this report's window before 2026-03-02 may be missing from these figures.",
    );
    expect(
      retentionNote({ days: 1, oldestKeptAt: '2026-03-02T00:00:00.000Z', windowComplete: false }, day),
    ).toContain('kept 1 day:');
  });
});
