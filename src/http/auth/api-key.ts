import { hash, timingSafeEqual } from 'node:crypto';

// One-shot hashing: no Hash object per call (this runs on every /api request).
const digest = (value: string) => Buffer.from(hash('sha256', value, 'base64'), 'latin1');

/**
 * Constant-time key comparison. Both sides are hashed to 32 bytes first, so a key of a different
 * length takes the same time to fail as a key of the right length.
 */
export function createKeyMatcher(expectedKey: string): (presented: string) => boolean {
  const expected = digest(expectedKey);
  return (presented) => timingSafeEqual(expected, digest(presented));
}
