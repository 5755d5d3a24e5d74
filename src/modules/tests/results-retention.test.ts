import { describe, expect, it } from 'vitest';
import { DEFAULT_PACING, nextBatchSize, retentionCutoff } from './results-retention.js';

describe('nextBatchSize', () => {
  const pacing = { ...DEFAULT_PACING, targetMs: 100, minBatch: 1, maxBatch: 1000 };

  it('shrinks a batch that took longer than the target in proportion', () => {
    expect(nextBatchSize(400, 400, pacing)).toBe(100);
    expect(nextBatchSize(10, 10_000, pacing)).toBe(1);
  });

  it('grows a fast batch at most twofold, up to the maximum', () => {
    expect(nextBatchSize(50, 10, pacing)).toBe(100);
    expect(nextBatchSize(50, 0, pacing)).toBe(100);
    expect(nextBatchSize(800, 1, pacing)).toBe(1000);
  });

  it('keeps a batch on target', () => {
    expect(nextBatchSize(200, 100, pacing)).toBe(200);
  });
});

describe('retentionCutoff', () => {
  it('is whole days before now', () => {
    expect(retentionCutoff(new Date('2026-06-01T03:30:00Z'), 90).toISOString()).toBe(
      '2026-03-03T03:30:00.000Z',
    );
  });
});
