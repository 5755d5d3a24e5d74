import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../../support/databases.js';
import type { DatabaseHandle } from '../../../../src/db/database.js';
import type { KeyLookup } from '../../../../src/shared/credentials.js';
import { generateKey, hashKey } from '../../../../src/modules/keys/key-material.js';
import { createKeyLookup, TOUCH_INTERVAL_MS } from '../../../../src/modules/keys/key-lookup.js';
import { createKeysRepository, type KeysRepository } from '../../../../src/modules/keys/keys.repository.js';

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const START = Date.parse('2025-06-02T09:00:00.000Z');

describe.each(DIALECTS)('key lookup (%s)', (dialect) => {
  let database: DatabaseHandle;
  let repository: KeysRepository;
  let now: number;
  const clock = () => now;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    repository = createKeysRepository(database.db);
  });
  afterAll(async () => database.close());
  beforeEach(async () => {
    await database.db.deleteFrom('api_keys').execute();
    now = START;
  });

  const store = async (expiresAt: string | null = null) => {
    const key = generateKey();
    const row = await repository.insert({
      name: 'CI',
      scope: 'upload',
      apps: ['shop'],
      prefix: key.slice(0, 12),
      keyHash: hashKey(key),
      createdAt: new Date(now).toISOString(),
      expiresAt,
    });
    return { key, id: row.id };
  };
  const lastUsed = async (id: number) => (await repository.findById(id))?.last_used_at ?? null;
  // `used` writes in the background; a later read on the same pool comes after it.
  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('finds a key by its hash; another string, even of the right shape, is unknown', async () => {
    const { key, id } = await store();
    const lookup = createKeyLookup({ repository, clock, ttlMs: 1000, log: silent });
    expect(await lookup.resolve(key)).toEqual({
      kind: 'valid',
      credential: { id, name: 'CI', scope: 'upload', apps: ['shop'] },
    });
    expect(await lookup.resolve(`tdk_${'x'.repeat(43)}`)).toEqual({ kind: 'unknown' });
    // Not even a lookup for strings that cannot be keys: the answer comes at once.
    expect(lookup.resolve('some-other-secret')).toEqual({ kind: 'unknown' });
    expect(lookup.resolve(`${key}x`)).toEqual({ kind: 'unknown' });
  });

  it('writes lastUsedAt at most once a minute per key, even from several processes', async () => {
    const { key, id } = await store();
    const one = createKeyLookup({ repository, clock, ttlMs: 1000, log: silent });
    const two = createKeyLookup({ repository, clock, ttlMs: 1000, log: silent });
    const use = async (lookup: typeof one) => {
      const found = (await lookup.resolve(key)) as Extract<KeyLookup, { kind: 'valid' }>;
      lookup.used(found.credential);
      await settled();
    };
    const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
    await use(one);
    expect(await lastUsed(id)).toBe(at(0));
    // Another process, 30 s later: its own first use, but the row says a minute has not passed.
    now = START + 30_000;
    await use(two);
    await use(one);
    expect(await lastUsed(id)).toBe(at(0));
    now = START + TOUCH_INTERVAL_MS;
    await use(one);
    expect(await lastUsed(id)).toBe(at(60));
    now = START + 90_000;
    await use(two);
    expect(await lastUsed(id)).toBe(at(60));
    now = START + 150_000;
    await use(two);
    expect(await lastUsed(id)).toBe(at(150));
  });

  it('trusts what it read for the TTL; forget() makes the next request ask again at once', async () => {
    const { key, id } = await store();
    const lookup = createKeyLookup({ repository, clock, ttlMs: 1000, log: silent });
    expect((await lookup.resolve(key)).kind).toBe('valid');
    await repository.revoke(id, new Date(now).toISOString());
    // Within the TTL the entry answers from memory, without a promise.
    now += 999;
    expect(lookup.resolve(key)).toMatchObject({ kind: 'valid' });
    now += 1;
    expect(await lookup.resolve(key)).toEqual({ kind: 'inactive' });

    const other = await store();
    expect((await lookup.resolve(other.key)).kind).toBe('valid');
    await repository.revoke(other.id, new Date(now).toISOString());
    lookup.forget(other.id);
    expect(await lookup.resolve(other.key)).toEqual({ kind: 'inactive' });
  });

  it('decides expiry against the clock on every request, also from memory', async () => {
    const { key } = await store(new Date(START + 500).toISOString());
    const lookup = createKeyLookup({ repository, clock, ttlMs: 60_000, log: silent });
    expect((await lookup.resolve(key)).kind).toBe('valid');
    now = START + 500;
    expect(lookup.resolve(key)).toEqual({ kind: 'inactive' });
  });

  it('with a TTL of 0 asks the database on every request', async () => {
    const { key, id } = await store();
    const lookup = createKeyLookup({ repository, clock, ttlMs: 0, log: silent });
    expect((await lookup.resolve(key)).kind).toBe('valid');
    await repository.revoke(id, new Date(now).toISOString());
    expect(await lookup.resolve(key)).toEqual({ kind: 'inactive' });
  });
});
