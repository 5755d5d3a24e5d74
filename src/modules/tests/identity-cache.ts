import { LRUCache } from 'lru-cache';
import type { IdentityToResolve, ResolveIdentities } from './test-recorder.js';

/** Answers identity ids and moves `last_seen` to `day` (the repository's resolveIdentities). */
export type ResolveIdentitiesOn = (
  appId: number,
  identities: readonly IdentityToResolve[],
  day: string,
) => Promise<Map<string, number>>;

/**
 * Identities remembered per process: enough for the tests of a few large apps. An entry costs
 * about 150 bytes (its key, its id, the day it was last written), so the bound holds ~30 MiB.
 */
export const IDENTITY_CACHE_SIZE = 200_000;

/**
 * Puts a per-process cache of known identities in front of `resolve`: an identity already
 * resolved today needs no SQL at all (its row exists and its `last_seen` is today). Only entries of
 * today are trusted, so a row that retention removed (it removes rows not seen for days) is never
 * answered from the cache; older entries go through `resolve` again, which also moves `last_seen`.
 */
export function cachedIdentities(
  resolve: ResolveIdentitiesOn,
  today: () => string,
  max = IDENTITY_CACHE_SIZE,
): ResolveIdentities {
  // One day for the whole cache (not one per entry): entries are only ever written for `cacheDay`.
  const cache = new LRUCache<string, number>({ max });
  let cacheDay = '';
  return async (appId, identities) => {
    const day = today();
    if (day !== cacheDay) {
      // A new day: every entry's `last_seen` is behind, so none may skip the update.
      cache.clear();
      cacheDay = day;
    }
    const ids = new Map<string, number>();
    const missing: IdentityToResolve[] = [];
    const prefix = `${appId}:`;
    for (const identity of identities) {
      const id = cache.get(prefix + identity.key);
      if (id === undefined) missing.push(identity);
      else ids.set(identity.key, id);
    }
    if (missing.length === 0) return ids;
    const resolved = await resolve(appId, missing, day);
    for (const [key, id] of resolved) {
      ids.set(key, id);
      if (day === cacheDay) cache.set(prefix + key, id);
    }
    return ids;
  };
}
