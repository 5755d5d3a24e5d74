import { afterEach, describe, expect, it, vi } from 'vitest';
import { nowIso } from './time.js';

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
