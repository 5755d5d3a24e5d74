import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_KEY, type TestApp } from '../../../test/support/test-app.js';

let ipCounter = 1;
const freshIp = () => `10.9.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

/** How many answers had each status. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('the /api rate limit counts every request of its address', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });
  const start = async (env: Record<string, string>) => {
    const t = await createTestApp({ env: { RATE_LIMIT_WINDOW_MS: '60000', ...env } });
    apps.push(t);
    return t;
  };
  const get = (t: TestApp, url: string, ip: string, key?: string) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: key ? { 'x-api-key': key } : {} });

  it('limits a flood without a key: 20 answers of 401, then 429', async () => {
    const t = await start({ RATE_LIMIT_MAX: '20' });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await get(t, '/api/apps', ip)).statusCode);
    expect(tally(statuses)).toEqual({ 401: 20, 429: 20 });
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    // The refusal is the limiter's, with its headers, even though the request has no key.
    const refused = await get(t, '/api/apps', ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { code: 'TOO_MANY_REQUESTS' } });
    expect(refused.headers['retry-after']).toBeDefined();
    // Another address is not affected, and /health is outside the limit.
    expect((await get(t, '/api/apps', freshIp(), TEST_KEY)).statusCode).toBe(200);
    expect((await get(t, '/health', ip)).statusCode).toBe(200);
  });

  it('counts unknown /api paths, with or without a key, against the same limit', async () => {
    const t = await start({ RATE_LIMIT_MAX: '6' });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(t, `/api/no-such-${i}`, ip, TEST_KEY)).statusCode);
    for (let i = 0; i < 3; i++) statuses.push((await get(t, `/api/no-such-${i}`, ip)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 401, 401, 401]);
    expect((await get(t, '/api/apps', ip, TEST_KEY)).statusCode).toBe(429);
    expect((await get(t, '/api/no-such-route', ip, TEST_KEY)).statusCode).toBe(429);
  });

  it('counts refused requests against a route override too', async () => {
    const t = await start({ RATE_LIMIT_MAX: '100', RATE_LIMIT_ROUTES: 'GET /api/to_do_list=2/60000' });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(t, '/api/to_do_list', ip)).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    // Counted apart from the general limit: the address may still read other routes.
    const other = await get(t, '/api/apps', ip, TEST_KEY);
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-limit']).toBe('100');
  });

  it('counts a HEAD against the override of its GET route', async () => {
    const t = await start({ RATE_LIMIT_MAX: '100', RATE_LIMIT_ROUTES: 'GET /api/to_do_list=2/60000' });
    const ip = freshIp();
    const head = () =>
      t.app.inject({
        method: 'HEAD',
        url: '/api/to_do_list',
        remoteAddress: ip,
        headers: { 'x-api-key': TEST_KEY },
      });
    const first = await head();
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect((await get(t, '/api/to_do_list', ip, TEST_KEY)).statusCode).toBe(200);
    expect((await head()).statusCode).toBe(429);
  });
});
