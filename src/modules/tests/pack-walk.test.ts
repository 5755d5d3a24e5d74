import { describe, expect, it } from 'vitest';
import { walkPack } from './pack-walk.js';
import { createPackWriter, PACKED_STATUSES, unpackResults } from './result-pack.js';
import { countInPack } from './test-page.js';

function walked(packed: Uint8Array) {
  const results: { identityId: number; status: string; durationMs: number }[] = [];
  walkPack(packed, (identityId, status, durationMs) => results.push({ identityId, status, durationMs }));
  return results;
}

describe('walking a pack without building its results', () => {
  it('visits what unpackResults reads, truncated tails included', () => {
    let seed = 3;
    const next = (bound: number) => Math.floor(((seed = (seed * 69069 + 1) % 2 ** 32) / 2 ** 32) * bound);
    const writer = createPackWriter();
    for (let index = 0; index < 300; index++) {
      writer.add({
        identityId: next(2 ** (1 + next(28))),
        status: PACKED_STATUSES[next(4)]!,
        retries: next(70),
        durationMs: next(2 ** (1 + next(30))),
      });
    }
    const packed = writer.finish();
    for (const length of [packed.length, packed.length - 1, packed.length - 2, 7, 1, 0]) {
      const cut = packed.subarray(0, length);
      const expected = unpackResults(cut).map(({ identityId, status, durationMs }) => ({
        identityId,
        status,
        durationMs,
      }));
      expect(walked(cut)).toEqual(expected);
    }
    expect(walked(Buffer.alloc(0))).toEqual([]);
  });

  it('counts the results of one identity, a repeated test counted each time', () => {
    const writer = createPackWriter();
    for (const identityId of [5, 300, 5, 7, 5])
      writer.add({ identityId, status: 'passed', retries: 0, durationMs: 9 });
    const packed = writer.finish();
    expect([countInPack(packed, 5), countInPack(packed, 300), countInPack(packed, 8)]).toEqual([3, 1, 0]);
    expect(countInPack(null, 5)).toBe(0);
  });
});
