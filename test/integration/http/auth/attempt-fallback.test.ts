import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startPrivateRedis } from '../../reports/processes.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../../support/test-app.js';
import { createGuardRedisConnection } from '../../../../src/broker/redis-connection.js';

const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

/**
 * With REDIS_URL set, failed attempts and blocks live in Redis. While Redis cannot be reached the
 * guard keeps them in the process's memory instead, so a brute-force attempt is still blocked.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serveWith(redisUrl: string, env: Record<string, string> = {}) {
  const redis = createGuardRedisConnection(redisUrl);
  redis.on('error', () => undefined);
  cleanups.push(() => redis.disconnect());
  const app: TestApp = await createTestApp({ redis, env });
  cleanups.push(() => app.close());
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (key: string) =>
    (await fetch(`${address}/api/apps`, { headers: { 'x-api-key': key } })).status;
  return { redis, get };
}

describe('brute-force protection while Redis is unreachable', () => {
  it('still blocks the fourth wrong key, and then the right key too', async () => {
    // Nothing listens on port 1.
    const { get } = await serveWith('redis://127.0.0.1:1');
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push(await get('wrong-key'));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(await get(TEST_KEY)).toBe(429);
  });

  it.runIf(redisServerInstalled)(
    'falls back when Redis stops, and a block made meanwhile holds after it returns',
    async () => {
      let redis = await startPrivateRedis();
      cleanups.push(() => redis.stop());
      const { redis: connection, get } = await serveWith(redis.url);
      await waitFor(() => connection.status === 'ready');
      expect(await get('wrong-key')).toBe(401);
      expect(await connection.keys('dashboard:auth:failures:*')).toHaveLength(1);

      await redis.stop();
      await waitFor(() => connection.status !== 'ready');
      const during = [];
      for (let attempt = 0; attempt < 4; attempt += 1) during.push(await get('wrong-key'));
      expect(during).toEqual([401, 401, 401, 429]);

      redis = await startPrivateRedis(redis.port);
      await waitFor(() => connection.status === 'ready');
      // The restarted Redis knows nothing of the block; this process still does.
      expect(await connection.keys('dashboard:auth:*')).toEqual([]);
      expect(await get(TEST_KEY)).toBe(429);
    },
    30_000,
  );

  it.runIf(redisServerInstalled)(
    'keeps its failures, blocks and rate-limit counts under REDIS_NAMESPACE',
    async () => {
      const redis = await startPrivateRedis();
      cleanups.push(() => redis.stop());
      const { redis: connection, get } = await serveWith(redis.url, {
        REDIS_NAMESPACE: 'team-a:',
        RATE_LIMIT_MAX: '100',
      });
      await waitFor(() => connection.status === 'ready');
      for (let attempt = 0; attempt < 4; attempt += 1) await get('wrong-key');
      const keys = await connection.keys('*');
      expect(keys.length).toBeGreaterThanOrEqual(3);
      expect(keys.filter((key) => !key.startsWith('team-a:'))).toEqual([]);
      expect(keys).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^team-a:dashboard:auth:failures:/),
          expect.stringMatching(/^team-a:dashboard:auth:block:/),
          expect.stringMatching(/^team-a:dashboard:ratelimit:/),
        ]),
      );
    },
    30_000,
  );
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
