import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Constant-time key comparison. Both sides are hashed to 32 bytes first, so a key of a different
 * length takes the same time to fail as a key of the right length.
 */
export function createKeyMatcher(expectedKey: string): (presented: string) => boolean {
  const expected = digest(expectedKey);
  return (presented) => timingSafeEqual(expected, digest(presented));
}
