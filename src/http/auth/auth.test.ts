import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_KEY, type TestApp } from '../../../test/support/test-app.js';
import { createGuardRedisConnection } from '../../broker/redis-connection.js';

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

describe('API key and brute-force protection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BRUTE_FORCE_BLOCK_MS: '1500' } });
  });
  afterAll(async () => t.close());

  it('answers 401 with the flat body for a missing or wrong key, 200 with the right one', async () => {
    const client = asIp(t, freshIp());
    for (const res of [await client.get(), await client.get('nope'), await client.get(`${TEST_KEY}x`)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        error: 'Invalid or missing API key',
        code: 'UNAUTHORIZED',
      });
    }
    expect((await client.get(TEST_KEY)).statusCode).toBe(200);
  });

  it('keeps /health and the validate endpoint public', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const res = await asIp(t, freshIp()).validate({ apiKey: TEST_KEY });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: true, message: expect.any(String), scope: 'admin', name: null });
  });

  it('validates: wrong → 401 valid:false; missing, empty or non-string → 400 valid:false', async () => {
    const wrong = await asIp(t, freshIp()).validate({ apiKey: 'wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ valid: false, message: expect.any(String), attemptsRemaining: 2 });
    for (const payload of [undefined, {}, { apiKey: '' }, { apiKey: 42 }, { apiKey: null }]) {
      const res = await asIp(t, freshIp()).validate(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ valid: false, message: expect.any(String), attemptsRemaining: 2 });
    }
  });

  it('blocks the 4th failure, then refuses even the right key, until the block ends', async () => {
    const client = asIp(t, freshIp());
    for (let attempt = 1; attempt <= 3; attempt++) expect((await client.get('bad')).statusCode).toBe(401);
    const fourth = await client.get('bad');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ error: expect.stringMatching(/Try again in 1 minute/), retryAfter: 2 });
    expect(fourth.headers).toMatchObject({
      'retry-after': '2',
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '2',
    });
    const blocked = await client.get(TEST_KEY);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().retryAfter).toBeGreaterThan(0);
    expect((await client.validate({ apiKey: TEST_KEY })).statusCode).toBe(429);
    expect((await asIp(t, freshIp()).get(TEST_KEY)).statusCode).toBe(200);
    await sleep(1600);
    expect((await client.get(TEST_KEY)).statusCode).toBe(200);
  });

  it('counts validation failures and requests without a usable key, but not missing headers', async () => {
    const client = asIp(t, freshIp());
    for (let i = 0; i < 10; i++) expect((await client.get()).statusCode).toBe(401);
    expect((await client.validate({ apiKey: 'x' })).statusCode).toBe(401);
    expect((await client.validate({})).statusCode).toBe(400);
    expect((await client.get('bad')).statusCode).toBe(401);
    expect((await client.validate({ apiKey: 'x' })).statusCode).toBe(429);
  });

  it('forgets the failures of an IP after a successful validation', async () => {
    const client = asIp(t, freshIp());
    for (let i = 0; i < 3; i++) await client.get('bad');
    expect((await client.validate({ apiKey: TEST_KEY })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await client.get('bad')).statusCode).toBe(401);
    expect((await client.get('bad')).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  const failFromBehindProxy = async (t: TestApp, forwardedFor: string) => {
    let last = 0;
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/apps',
        remoteAddress: '127.0.0.1',
        headers: { 'x-api-key': 'bad', 'x-forwarded-for': forwardedFor },
      });
      last = res.statusCode;
    }
    return last;
  };

  it('ignores X-Forwarded-For when off, so a client cannot pick its IP to dodge a block', async () => {
    const t = await createTestApp();
    try {
      expect(await failFromBehindProxy(t, '203.0.113.7')).toBe(429);
      const other = await t.app.inject({
        method: 'GET',
        url: '/api/apps',
        remoteAddress: '127.0.0.1',
        headers: { 'x-api-key': TEST_KEY, 'x-forwarded-for': '198.51.100.1' },
      });
      expect(other.statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('uses the forwarded client IP when the proxy is trusted', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      expect(await failFromBehindProxy(t, '203.0.113.8')).toBe(429);
      const other = await t.app.inject({
        method: 'GET',
        url: '/api/apps',
        remoteAddress: '127.0.0.1',
        headers: { 'x-api-key': TEST_KEY, 'x-forwarded-for': '198.51.100.2' },
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('production slow-down', () => {
  it('delays each failed answer by 500 ms per earlier failure', async () => {
    const t = await createTestApp({
      env: { NODE_ENV: 'production', CORS_ORIGINS: 'https://x.io', BRUTE_FORCE_MAX_ATTEMPTS: '5' },
    });
    try {
      const client = asIp(t, freshIp());
      const timed = async () => {
        const started = performance.now();
        const res = await client.get('bad');
        return { status: res.statusCode, ms: performance.now() - started };
      };
      const first = await timed();
      const second = await timed();
      const third = await timed();
      expect(first.status).toBe(401);
      expect(first.ms).toBeLessThan(400);
      expect(second.ms).toBeGreaterThanOrEqual(480);
      expect(third.ms).toBeGreaterThanOrEqual(980);
    } finally {
      await t.close();
    }
  });
});

describe('general rate limit', () => {
  it('answers 429 TOO_MANY_REQUESTS with retryAfter and the four headers', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      const ip = freshIp();
      const get = () =>
        t.app.inject({
          method: 'GET',
          url: '/api/apps',
          remoteAddress: ip,
          headers: { 'x-api-key': TEST_KEY },
        });
      const ok = await get();
      expect(ok.headers['x-ratelimit-limit']).toBe('3');
      expect(ok.headers['x-ratelimit-remaining']).toBe('2');
      await get();
      await get();
      const limited = await get();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        success: false,
        error: { code: 'TOO_MANY_REQUESTS', statusCode: 429, details: { retryAfter: expect.any(Number) } },
      });
      expect(limited.json().error.details.retryAfter).toBeGreaterThan(0);
      for (const header of [
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ]) {
        expect(limited.headers[header], header).toBeDefined();
      }
      expect((await t.app.inject({ method: 'GET', url: '/health', remoteAddress: ip })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('applies per-route overrides from RATE_LIMIT_ROUTES', async () => {
    const t = await createTestApp({
      env: { RATE_LIMIT_MAX: '100', RATE_LIMIT_ROUTES: 'GET /api/to_do_list=1/60000' },
    });
    try {
      const ip = freshIp();
      const get = (url: string) =>
        t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { 'x-api-key': TEST_KEY } });
      const first = await get('/api/to_do_list');
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-limit']).toBe('1');
      expect((await get('/api/to_do_list')).statusCode).toBe(429);
      // Other routes (another method on the same path included) keep the general limit.
      const other = await get('/api/apps');
      expect(other.statusCode).toBe(200);
      expect(other.headers['x-ratelimit-limit']).toBe('100');
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/to_do_list',
        remoteAddress: ip,
        headers: { 'x-api-key': TEST_KEY },
        payload: { title: 'Limited apart' },
      });
      expect(post.statusCode).toBe(201);
      expect(post.headers['x-ratelimit-limit']).toBe('100');
    } finally {
      await t.close();
    }
  });
});

describe('guard store unreachable', () => {
  it('answers at once while the store is unreachable: the key works and a wrong key is refused', async () => {
    // Nothing listens on port 1: every command fails while ioredis keeps reconnecting.
    const redis = createGuardRedisConnection('redis://127.0.0.1:1');
    redis.on('error', () => {});
    const t = await createTestApp({ redis, env: { RATE_LIMIT_MAX: '100' } });
    try {
      const started = performance.now();
      const ok = await t.app.inject({ method: 'GET', url: '/api/apps', headers: { 'x-api-key': TEST_KEY } });
      const wrong = await t.app.inject({ method: 'GET', url: '/api/apps', headers: { 'x-api-key': 'bad' } });
      expect(ok.statusCode).toBe(200);
      expect(wrong.statusCode).toBe(401);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await t.close();
      redis.disconnect();
    }
  });
});
