import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from '../../../support/services.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../../support/test-app.js';
import { openTestDatabase } from '../../../support/test-database.js';

// The guard's shared state through Redis (the rest of the guard: src/http/auth/auth.test.ts).
let ipCounter = 1;
const freshIp = () => `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

const asIp = (t: TestApp, ip: string) => ({
  get: (key?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/apps',
      remoteAddress: ip,
      headers: key === undefined ? {} : { 'x-api-key': key },
    }),
  validate: (payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/validate',
      remoteAddress: ip,
      ...(payload === undefined ? {} : { payload: payload as object }),
    }),
});

describe.runIf(redisAvailable)('shared state on Redis', () => {
  const prefix = `test:${randomBytes(4).toString('hex')}:`;
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 3 });
    connections.push(redis);
    return redis;
  };
  afterAll(async () => {
    const cleaner = new Redis(TEST_REDIS_URL);
    const keys = await cleaner.keys(`${prefix}*`);
    if (keys.length) await cleaner.del(...keys);
    cleaner.disconnect();
    for (const redis of connections) redis.disconnect();
  });

  it('a block made through one instance holds on the other', async () => {
    const database = await openTestDatabase('sqlite');
    const one = await createTestApp({ database, redis: connect() });
    const two = await createTestApp({ database, redis: connect() });
    try {
      const ip = freshIp();
      const onOne = asIp(one, ip);
      const onTwo = asIp(two, ip);
      expect((await onOne.get('bad')).statusCode).toBe(401);
      expect((await onTwo.get('bad')).statusCode).toBe(401);
      expect((await onOne.validate({ apiKey: 'bad' })).statusCode).toBe(401);
      expect((await onTwo.get('bad')).statusCode).toBe(429);
      const blocked = await onOne.get(TEST_KEY);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().retryAfter).toBeGreaterThan(1700);
      expect((await asIp(two, freshIp()).get(TEST_KEY)).statusCode).toBe(200);
    } finally {
      await one.close();
      await two.close();
      await database.close();
    }
  });

  it('the general rate limit is counted across instances', async () => {
    const database = await openTestDatabase('sqlite');
    const env = { RATE_LIMIT_MAX: '2' };
    const one = await createTestApp({ database, redis: connect(), env });
    const two = await createTestApp({ database, redis: connect(), env });
    try {
      const ip = freshIp();
      const get = (t: TestApp) =>
        t.app.inject({
          method: 'GET',
          url: '/api/apps',
          remoteAddress: ip,
          headers: { 'x-api-key': TEST_KEY },
        });
      expect((await get(one)).statusCode).toBe(200);
      expect((await get(two)).statusCode).toBe(200);
      expect((await get(one)).statusCode).toBe(429);
    } finally {
      await one.close();
      await two.close();
      await database.close();
    }
  });
});
