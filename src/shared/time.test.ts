import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoAt, nowIso } from './time.js';

describe('nowIso', () => {
  afterEach(() => vi.useRealTimers());

  it('formats the current millisecond, following the clock forward and back', () => {
    vi.useFakeTimers();
    const instants = [
      '2026-11-26T00:00:00.000Z',
      '2026-11-26T00:00:00.000Z',
      '2026-11-26T00:00:00.001Z',
      '2025-01-01T23:59:59.999Z',
      '2026-11-26T00:00:00.001Z',
    ];
    for (const instant of instants) {
      vi.setSystemTime(new Date(instant));
      expect(nowIso()).toBe(instant);
    }
  });

  it('matches Date#toISOString on the real clock', () => {
    const before = Date.now();
    const text = nowIso();
    const at = Date.parse(text);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(new Date(at).toISOString()).toBe(text);
  });
});

describe('isoAt', () => {
  it('is Date#toISOString for every millisecond of a second, across days, years and the epoch', () => {
    const starts = [
      Date.parse('2026-11-26T23:59:59.000Z'),
      Date.parse('2024-02-29T12:00:00.000Z'),
      Date.parse('1999-12-31T23:59:59.000Z'),
      -1000,
      0,
      Date.parse('+010000-01-01T00:00:00.000Z'),
    ];
    for (const start of starts) {
      for (let ms = start; ms < start + 2000; ms += 1) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('follows instants out of order (the clock set back, or two callers)', () => {
    const instants = [
      1_795_000_000_123, 1_795_000_000_999, 1_795_000_001_000, 1_795_000_000_500, -1, 86_399_999,
    ];
    for (let round = 0; round < 2; round += 1) {
      for (const ms of instants) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('refuses what toISOString refuses', () => {
    expect(() => isoAt(Number.NaN)).toThrow(RangeError);
  });
});
