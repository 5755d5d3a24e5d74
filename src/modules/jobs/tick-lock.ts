import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Makes each scheduled tick run once across every scheduler process: the first process to claim
 * (job, tick) runs it, the others skip it. The tick is the scheduled instant (not the moment the
 * timer fired), so processes whose timers fire a few milliseconds apart claim the same key.
 */
export interface TickLock {
  claim(job: string, tick: Date): Promise<boolean>;
}

/**
 * How long a claim is kept. Keys name their tick, so this only bounds how late a slow process
 * may still fire for a tick another one already ran; it must outlive any clock skew.
 */
export const TICK_CLAIM_TTL_MS = 10 * 60_000;

const keyOf = (prefix: string, job: string, tick: Date) =>
  `${prefix}dashboard:jobs:tick:${job}:${tick.getTime()}`;

/** Shared through Redis with `SET key NX PX` (scale-out). */
export function createRedisTickLock(
  redis: Redis,
  options: { namespace?: string; ttlMs?: number } = {},
): TickLock {
  const owner = randomUUID();
  return {
    async claim(job, tick) {
      const reply = await redis.set(
        keyOf(options.namespace ?? '', job, tick),
        owner,
        'PX',
        options.ttlMs ?? TICK_CLAIM_TTL_MS,
        'NX',
      );
      return reply === 'OK';
    },
  };
}

/** The embedded default: one process, so a guard in memory suffices (also stops a double fire). */
export function createMemoryTickLock(options: { ttlMs?: number; now?: () => number } = {}): TickLock {
  const ttlMs = options.ttlMs ?? TICK_CLAIM_TTL_MS;
  const now = options.now ?? Date.now;
  const claims = new Map<string, number>();
  return {
    async claim(job, tick) {
      const at = now();
      // Insertion order is expiry order (one TTL), so the sweep stops at the first live claim.
      for (const [key, expiresAt] of claims) {
        if (expiresAt > at) break;
        claims.delete(key);
      }
      const key = keyOf('', job, tick);
      if (claims.has(key)) return false;
      claims.set(key, at + ttlMs);
      return true;
    },
  };
}
