import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './webhook-sender.js';

describe('Retry-After', () => {
  const now = Date.parse('2025-03-10T12:00:00.000Z');

  it('reads seconds and HTTP dates, never negative, capped at an hour', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 10 Mar 2025 12:00:20 GMT', now)).toBe(20_000);
    expect(parseRetryAfter('Mon, 10 Mar 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
