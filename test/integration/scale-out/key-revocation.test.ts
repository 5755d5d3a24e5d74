import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../../src/db/database.js';
import {
  spawnService,
  type ServiceProcess,
  uniqueNamespace,
  waitUntilHealthy,
} from '../reports/processes.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { freePort } from '../../support/free-port.js';
import { postgresAvailable, redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { TEST_KEY } from '../../support/test-app.js';

/**
 * Two API processes on one PostgreSQL database and one Redis. Process A trusts a looked-up key
 * for a minute (API_KEY_CACHE_MS=60000), so only the broker's `keys:revoked` message can make it
 * refuse a key revoked through B within a second; process B keeps the default 1 s, the safety
 * net for a message that never comes (a revocation written straight into the database).
 */
const NAMESPACE = uniqueNamespace('keys');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgresAvailable || !redisAvailable)('key revocation across two API processes', () => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let redis: Redis;
  const processes: ServiceProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    database = openDatabase(testDb.config);
    await migrateToLatest(database.db);
    redis = new Redis(TEST_REDIS_URL);
    for (const cacheMs of ['60000', '1000']) {
      const port = await freePort();
      processes.push(
        spawnService('api', {
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: testDb.url,
          REDIS_URL: TEST_REDIS_URL,
          REDIS_NAMESPACE: NAMESPACE,
          API_SECURITY_KEY: TEST_KEY,
          RATE_LIMIT_MAX: '0',
          API_KEY_CACHE_MS: cacheMs,
        }),
      );
      urls.push(`http://127.0.0.1:${port}`);
    }
    try {
      await Promise.all(urls.map((url) => waitUntilHealthy(url)));
    } catch (error) {
      throw new Error(`${String(error)}\n${processes.map((p) => p.output()).join('\n---\n')}`);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    const left = await redis.keys(`${NAMESPACE}*`);
    if (left.length) await redis.del(...left);
    redis.disconnect();
    await database?.close();
    await testDb?.drop();
  }, 60_000);

  const call = (base: string, path: string, key: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json' } });

  const makeKey = async (base: string) => {
    const response = await call(base, '/api/keys', TEST_KEY, {
      method: 'POST',
      body: JSON.stringify({ name: 'reader', scope: 'read' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { id: number; key: string } }).data;
  };

  /** Milliseconds from now until `base` refuses the key (polling), or Infinity after `limitMs`. */
  const refusedAfter = async (base: string, key: string, limitMs = 3000) => {
    const started = performance.now();
    while (performance.now() - started < limitMs) {
      if ((await call(base, '/api/apps', key)).status === 401) return performance.now() - started;
      await sleep(10);
    }
    return Infinity;
  };

  /** Both processes accept the key, so each holds it in its lookup cache. */
  const useEverywhere = async (key: string) => {
    for (const base of urls) expect((await call(base, '/api/apps', key)).status).toBe(200);
  };

  for (const [via, label] of [
    [0, 'A'],
    [1, 'B'],
  ] as const) {
    it(`a key revoked through process ${label} gets 401 from both within 1 s`, async () => {
      const { id, key } = await makeKey(urls[via]!);
      await useEverywhere(key);
      const revoked = await call(urls[via]!, `/api/keys/${id}`, TEST_KEY, { method: 'DELETE' });
      expect(revoked.status).toBe(204);
      const delays = await Promise.all(urls.map((base) => refusedAfter(base, key)));
      for (const delay of delays) expect(delay).toBeLessThan(1000);
      // Still refused a moment later (no process went back to an old entry).
      await sleep(200);
      for (const base of urls) expect((await call(base, '/api/apps', key)).status).toBe(401);
    });
  }

  it('an expired key gets 401 from both at its expiry, whatever they cached', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const response = await call(urls[0]!, '/api/keys', TEST_KEY, {
      method: 'POST',
      body: JSON.stringify({ name: 'short', scope: 'read', expiresAt }),
    });
    const { key } = ((await response.json()) as { data: { key: string } }).data;
    await useEverywhere(key);
    await sleep(Math.max(0, Date.parse(expiresAt) - Date.now()));
    const delays = await Promise.all(urls.map((base) => refusedAfter(base, key)));
    for (const delay of delays) expect(delay).toBeLessThan(1000);
  });

  it('without the broker message, the 1 s TTL is the safety net (B refuses; A, trusting for a minute, does not yet)', async () => {
    const { id, key } = await makeKey(urls[0]!);
    await useEverywhere(key);
    // Revoked behind the service's back: no process hears of it.
    await database.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    expect(await refusedAfter(urls[1]!, key)).toBeLessThan(1100);
    expect((await call(urls[0]!, '/api/apps', key)).status).toBe(200);
  });
});
