import type { Credential, KeyLookup, KeyResolver } from '../../shared/credentials.js';
import type { Log } from '../../shared/log.js';
import { hashKey, hasKeyShape, sameHash } from './key-material.js';
import type { KeysRepository } from './keys.repository.js';
import { toCredential } from './keys.service.js';

/** `last_used_at` is written at most this often per key. */
export const TOUCH_INTERVAL_MS = 60_000;
/** Entries kept at most (only real keys enter: an unknown key is never cached). */
const MAX_ENTRIES = 10_000;

interface Entry {
  credential: Credential;
  expiresAtMs: number | null;
  revoked: boolean;
  loadedAt: number;
}

const UNKNOWN: KeyLookup = Object.freeze({ kind: 'unknown' });
const INACTIVE: KeyLookup = Object.freeze({ kind: 'inactive' });

export interface KeyLookupOptions {
  repository: KeysRepository;
  clock: () => number;
  /**
   * How long a looked-up key is trusted without asking the database again. Revocations reach every
   * process through the broker within milliseconds; this bounds the time a lost message can
   * matter. 0 asks the database on every request.
   */
  ttlMs: number;
  log: Log;
}

export interface KeyLookupCache extends KeyResolver {
  /** Drops what this process knows of the key, so the next request asks the database. */
  forget(id: number): void;
}

/**
 * The guard's view of the keys made through the API: a request's key is hashed and found by that
 * hash, from memory while the entry is fresh, else with one indexed query (concurrent requests
 * with the same key share it). Expiry is decided against the clock on every request.
 */
export function createKeyLookup({ repository, clock, ttlMs, log }: KeyLookupOptions): KeyLookupCache {
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<KeyLookup>>();
  const touchedAt = new Map<number, number>();
  // Bumped by every `forget`: a lookup that began before it must not store what it read.
  let generation = 0;

  const decide = (entry: Entry, now: number): KeyLookup => {
    if (entry.revoked || (entry.expiresAtMs !== null && entry.expiresAtMs <= now)) return INACTIVE;
    return { kind: 'valid', credential: entry.credential };
  };

  const load = async (keyHash: string): Promise<KeyLookup> => {
    const startedIn = generation;
    const row = await repository.findByHash(keyHash);
    if (!row || !sameHash(row.key_hash, keyHash)) return UNKNOWN;
    const now = clock();
    const entry: Entry = {
      credential: toCredential(row),
      expiresAtMs: row.expires_at === null ? null : Date.parse(row.expires_at),
      revoked: row.revoked_at !== null,
      loadedAt: now,
    };
    if (ttlMs > 0 && startedIn === generation) {
      entries.delete(keyHash);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(keyHash, entry);
    }
    return decide(entry, now);
  };

  return {
    resolve(presented) {
      if (!hasKeyShape(presented)) return UNKNOWN;
      const keyHash = hashKey(presented);
      const now = clock();
      const entry = entries.get(keyHash);
      if (entry && now - entry.loadedAt < ttlMs) return decide(entry, now);
      const shared = pending.get(keyHash);
      if (shared) return shared;
      const lookup: Promise<KeyLookup> = load(keyHash).finally(() => {
        if (pending.get(keyHash) === lookup) pending.delete(keyHash);
      });
      pending.set(keyHash, lookup);
      return lookup;
    },

    used(credential) {
      const { id } = credential;
      if (id === null) return;
      const now = clock();
      if (now - (touchedAt.get(id) ?? -Infinity) < TOUCH_INTERVAL_MS) return;
      touchedAt.set(id, now);
      const at = new Date(now).toISOString();
      const notAfter = new Date(now - TOUCH_INTERVAL_MS).toISOString();
      repository.touch(id, at, notAfter).catch((error: unknown) => {
        touchedAt.delete(id);
        log.warn({ err: error, keyId: id }, 'could not record the use of an API key');
      });
    },

    forget(id) {
      generation += 1;
      for (const [keyHash, entry] of entries) {
        if (entry.credential.id === id) entries.delete(keyHash);
      }
      // A lookup in flight read the row before the revocation: the next request asks again.
      pending.clear();
    },
  };
}
