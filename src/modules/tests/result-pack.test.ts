import { describe, expect, it } from 'vitest';
import { createPackWriter, unpackResults } from './result-pack.js';
import { looksLikeTestId, testIdOf } from './test-identity.js';

describe('packed results', () => {
  it('round-trips every status, retries and durations, in order', () => {
    const writer = createPackWriter(4);
    const results = [
      { identityId: 1, status: 'passed' as const, retries: 0, durationMs: 12 },
      { identityId: 300_000, status: 'failed' as const, retries: 2, durationMs: 4_000_000 },
      { identityId: 2_000_000_000, status: 'flaky' as const, retries: 1, durationMs: 0 },
      { identityId: 7, status: 'skipped' as const, retries: 0, durationMs: 0 },
    ];
    for (const result of results) writer.add(result);
    expect(unpackResults(writer.finish())).toEqual(results);
  });

  it('keeps a passing result of a short test in 5 bytes, whatever garbage it is given', () => {
    const writer = createPackWriter();
    writer.add({ identityId: 1_000_000, status: 'passed', retries: 0, durationMs: 87.6 });
    expect(writer.length).toBe(5);
    writer.add({ identityId: 3, status: 'passed', retries: 500, durationMs: Number.NaN });
    writer.add({ identityId: 4, status: 'passed', retries: -1, durationMs: -5 });
    expect(unpackResults(writer.finish())).toEqual([
      { identityId: 1_000_000, status: 'passed', retries: 0, durationMs: 88 },
      { identityId: 3, status: 'passed', retries: 63, durationMs: 0 },
      { identityId: 4, status: 'passed', retries: 0, durationMs: 0 },
    ]);
  });

  it('reads nothing from nothing and stops at a cut tail', () => {
    expect(unpackResults(null)).toEqual([]);
    const writer = createPackWriter();
    writer.add({ identityId: 200, status: 'passed', retries: 0, durationMs: 300 });
    writer.add({ identityId: 200, status: 'failed', retries: 0, durationMs: 300 });
    const bytes = writer.finish();
    expect(unpackResults(bytes.subarray(0, bytes.length - 1))).toHaveLength(1);
  });
});

describe('test ids', () => {
  it('are the same for the same test and differ by app, spec, title and project', () => {
    const parts = { spec: 'a.spec.ts', title: 'cart › adds', project: '' };
    const id = testIdOf(1, parts);
    expect(looksLikeTestId(id)).toBe(true);
    expect(testIdOf(1, { ...parts })).toBe(id);
    expect(
      new Set([
        id,
        testIdOf(2, parts),
        testIdOf(1, { ...parts, spec: 'b.spec.ts' }),
        testIdOf(1, { ...parts, title: 'cart › adds two' }),
        testIdOf(1, { ...parts, project: 'chromium' }),
      ]).size,
    ).toBe(5);
  });
});
