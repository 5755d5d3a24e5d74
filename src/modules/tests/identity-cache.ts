import type { IdentityToResolve } from './test-recorder.js';

/**
 * Identities surely remembered per process (the latest used; up to twice as many are): enough for
 * the tests of a few large apps. An entry takes 24 bytes of a table made on first use (6 MiB for
 * each of two generations of 2¹⁸ slots), not a string and a map entry on the heap.
 */
export const IDENTITY_CACHE_SIZE = 200_000;

const DAY_MS = 86_400_000;
/** Per slot: the testId's 96 bits as four numbers of 24, the app, the identity id (0: empty). */
const SLOT = 6;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGITS = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 64; digit++) DIGITS[BASE64URL.charCodeAt(digit)] = digit;

/** Reads a testId (16 base64url characters) into `into`; false for anything else. */
function readKey(key: string, into: Int32Array): boolean {
  if (key.length !== 16) return false;
  for (let word = 0; word < 4; word++) {
    let value = 0;
    for (let at = word * 4; at < word * 4 + 4; at++) {
      const code = key.charCodeAt(at);
      const digit = code < 128 ? DIGITS[code]! : -1;
      if (digit < 0) return false;
      value = (value << 6) | digit;
    }
    into[word] = value;
  }
  return true;
}

/** An open-addressing table of `slots` (a power of two) slots, filled up to `limit` entries. */
function createTable(slots: number) {
  const cells = new Int32Array(slots * SLOT);
  const mask = slots - 1;
  let count = 0;
  /** The slot holding the key of `app`, or the empty slot where it goes. */
  function slotOf(bits: Int32Array, app: number): number {
    // The key is a hash already: its low bits spread evenly.
    for (let slot = (bits[0]! ^ bits[3]!) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * SLOT;
      if (cells[at + 5] === 0) return at;
      if (
        cells[at] === bits[0] &&
        cells[at + 1] === bits[1] &&
        cells[at + 2] === bits[2] &&
        cells[at + 3] === bits[3] &&
        cells[at + 4] === app
      ) {
        return at;
      }
    }
  }
  return {
    get count() {
      return count;
    },
    get(bits: Int32Array, app: number): number {
      return cells[slotOf(bits, app) + 5]!;
    },
    set(bits: Int32Array, app: number, id: number): void {
      const at = slotOf(bits, app);
      if (cells[at + 5] === 0) count += 1;
      cells.set(bits, at);
      cells[at + 4] = app;
      cells[at + 5] = id;
    },
  };
}

/**
 * Identity ids by app and testId, trusted for one UTC day only: a row retention removed (it
 * removes rows not seen for days) is never answered, and an identity first seen today has its
 * `last_seen` moved by the SQL that resolved it. Bounded by two generations of `max` entries:
 * when the newer one is full it becomes the older one and the oldest is dropped; an entry found
 * in the older one moves to the newer one, so the `max` identities used last always stay (with
 * one generation of `max`, an upload of just more tests than that would find none of them).
 */
export function createIdentityCache(options: { max?: number; now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const generation = Math.max(1, options.max ?? IDENTITY_CACHE_SIZE);
  // Linear probing stays short up to about 80 % of the slots taken.
  const slots = 2 ** Math.ceil(Math.log2(generation / 0.8));
  let newer: ReturnType<typeof createTable> | undefined;
  let older: ReturnType<typeof createTable> | undefined;
  let dayEnds = 0;
  let day = '';
  const bits = new Int32Array(4);

  /** Today (UTC); a new day forgets everything. */
  function today(): string {
    const time = now();
    if (time >= dayEnds || time < dayEnds - DAY_MS) {
      newer = older = undefined;
      dayEnds = (Math.floor(time / DAY_MS) + 1) * DAY_MS;
      day = new Date(dayEnds - DAY_MS).toISOString().slice(0, 10);
    }
    return day;
  }

  function remember(app: number, id: number) {
    newer ??= createTable(slots);
    if (newer.count >= generation) {
      older = newer;
      newer = createTable(slots);
    }
    newer.set(bits, app, id);
  }

  return {
    today,
    /** The id of an identity resolved today, when remembered. */
    get(appId: number, key: string): number | undefined {
      today();
      if (!newer || !readKey(key, bits)) return undefined;
      const fresh = newer.get(bits, appId);
      if (fresh > 0) return fresh;
      const kept = older?.get(bits, appId) ?? 0;
      if (kept === 0) return undefined;
      remember(appId, kept);
      return kept;
    },
    /**
     * The keys of `identities` as numbers, for `set` once they are resolved: kept as strings
     * while the database works they would outlive the young generation, batch after batch.
     */
    keysOf(identities: readonly IdentityToResolve[]): Int32Array {
      const keys = new Int32Array(identities.length * 4);
      identities.forEach((identity, index) => {
        if (readKey(identity.key, bits)) keys.set(bits, index * 4);
      });
      return keys;
    },
    /** Remembers the ids of `keys` resolved on `resolvedOn` (nothing when that day is over). */
    set(appId: number, keys: Int32Array, ids: ArrayLike<number>, resolvedOn: string): void {
      if (today() !== resolvedOn) return;
      for (let index = 0; index < ids.length; index++) {
        const id = ids[index]!;
        if (!(id > 0)) continue;
        bits.set(keys.subarray(index * 4, index * 4 + 4));
        remember(appId, id);
      }
    },
  };
}

export type IdentityCache = ReturnType<typeof createIdentityCache>;

/** Finds or creates identities, moving `last_seen` to `day`; answers ids in the order asked. */
export type ResolveIdentitiesOn = (
  appId: number,
  identities: readonly IdentityToResolve[],
  day: string,
) => Promise<ArrayLike<number>>;

/** What a recorder asks: remembered ids at once, the others in batches. */
export interface IdentityResolver {
  /** The id of an identity resolved today, when this process remembers it: no SQL at all. */
  known(appId: number, key: string): number | undefined;
  /** Ids in the order asked (0 for none); batches are resolved one after another, as asked. */
  resolve(appId: number, identities: readonly IdentityToResolve[]): Promise<ArrayLike<number>>;
  /** Called once an upload's batches are all answered, before its own rows are written. */
  settle(): Promise<void>;
}

/** Puts a per-process cache of identities resolved today in front of `resolve`. */
export function rememberingResolver(
  resolve: ResolveIdentitiesOn,
  cache: IdentityCache,
  settle: () => Promise<void> = async () => undefined,
): IdentityResolver {
  return {
    settle,
    known: (appId, key) => cache.get(appId, key),
    // Not an async function: its suspended frame would keep `identities` (the titles) until the
    // answer. Only the keys wait for it, as numbers.
    resolve(appId, identities) {
      const day = cache.today();
      const keys = cache.keysOf(identities);
      return resolve(appId, identities, day).then((ids) => {
        cache.set(appId, keys, ids, day);
        return ids;
      });
    },
  };
}
