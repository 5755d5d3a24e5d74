import { describe, expect, it } from 'vitest';
import { windowRetention } from './window-retention.js';

describe("a report window and the results' retention", () => {
  const now = new Date('2026-06-10T07:30:00.000Z');

  it('keeps from the first whole UTC day after now − days', () => {
    // now − 90 days is 2026-03-12T07:30Z: that day lost its morning, so it is not whole.
    expect(windowRetention('2026-03-13T00:00:00.000Z', 90, now)).toEqual({
      days: 90,
      oldestKeptAt: '2026-03-13T00:00:00.000Z',
      windowComplete: true,
    });
    expect(windowRetention('2026-03-12T00:00:00.000Z', 90, now).windowComplete).toBe(false);
  });

  it('takes a cutoff that falls on midnight as it is', () => {
    const midnight = new Date('2026-06-10T00:00:00.000Z');
    expect(windowRetention('2026-06-09T00:00:00.000Z', 1, midnight)).toEqual({
      days: 1,
      oldestKeptAt: '2026-06-09T00:00:00.000Z',
      windowComplete: true,
    });
    expect(windowRetention('2026-06-08T00:00:00.000Z', 1, midnight).windowComplete).toBe(false);
  });
});
