import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_KEY, type TestApp } from '../../../test/support/test-app.js';

let ipCounter = 1;
const freshIp = () => `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

describe('POST /api/auth/validate: attemptsRemaining', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const validate = (ip: string, payload: unknown, contentType?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/validate',
      remoteAddress: ip,
      ...(contentType ? { headers: { 'content-type': contentType } } : {}),
      ...(payload === undefined ? {} : { payload: payload as string }),
    });

  it('counts down 2, 1, 0 on wrong keys, then blocks with the unchanged 429 body', async () => {
    const ip = freshIp();
    for (const remaining of [2, 1, 0]) {
      const res = await validate(ip, { apiKey: 'wrong-key' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ valid: false, message: 'Invalid API key', attemptsRemaining: remaining });
    }
    const blocked = await validate(ip, { apiKey: 'wrong-key' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      error: expect.stringMatching(/^Too many failed attempts/),
      retryAfter: 1800,
    });
    expect((await validate(ip, { apiKey: TEST_KEY })).statusCode).toBe(429);
  });

  it('counts a missing key (400) like a wrong one (401), and header failures on other routes too', async () => {
    const ip = freshIp();
    expect((await validate(ip, {})).json()).toMatchObject({ valid: false, attemptsRemaining: 2 });
    await t.app.inject({
      method: 'GET',
      url: '/api/apps',
      remoteAddress: ip,
      headers: { 'x-api-key': 'bad' },
    });
    const third = await validate(ip, { apiKey: 'bad' });
    expect(third.statusCode).toBe(401);
    expect(third.json().attemptsRemaining).toBe(0);
  });

  it('starts again from the full allowance after a successful validation', async () => {
    const ip = freshIp();
    await validate(ip, { apiKey: 'wrong-key' });
    expect((await validate(ip, { apiKey: 'wrong-key' })).json().attemptsRemaining).toBe(1);
    const ok = await validate(ip, { apiKey: TEST_KEY });
    expect(ok.json()).toEqual({ valid: true, message: 'API key is valid', scope: 'admin', name: null });
    expect((await validate(ip, { apiKey: 'wrong-key' })).json().attemptsRemaining).toBe(2);
  });

  it('answers every unreadable or non-object body with 400 {valid: false, message, attemptsRemaining}', async () => {
    const bodies: Array<[string, string]> = [
      ['application/json', '{'],
      ['application/json', '{"apiKey": '],
      ['application/x-www-form-urlencoded', `apiKey=${TEST_KEY}`],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="apiKey"\r\n\r\nk\r\n--x--',
      ],
      ['text/plain', TEST_KEY],
      ['application/xml', `<apiKey>${TEST_KEY}</apiKey>`],
      ['application/json', '[]'],
      ['application/json', `["${TEST_KEY}"]`],
      ['application/json', 'null'],
      ['application/json', '"text"'],
      ['application/json', '42'],
      ['application/json', '{"__proto__": {"apiKey": "x"}}'],
    ];
    for (const [contentType, body] of bodies) {
      const res = await validate(freshIp(), body, contentType);
      expect(res.statusCode, `${contentType} ${body}`).toBe(400);
      expect(res.json(), `${contentType} ${body}`).toEqual({
        valid: false,
        message: expect.any(String),
        attemptsRemaining: 2,
      });
    }
    const form = await validate(freshIp(), 'apiKey=x', 'application/x-www-form-urlencoded');
    expect(form.json().message).toMatch(/Content-Type must be application\/json/);
  });

  it('counts unreadable bodies as failed attempts, so they block like wrong keys', async () => {
    const ip = freshIp();
    for (const remaining of [2, 1, 0]) {
      expect((await validate(ip, '{', 'application/json')).json().attemptsRemaining).toBe(remaining);
    }
    expect((await validate(ip, '{', 'application/json')).statusCode).toBe(429);
  });

  it('answers a body over 1 MiB with 413 in the same shape', async () => {
    const res = await validate(
      freshIp(),
      JSON.stringify({ apiKey: 'x'.repeat(1_100_000) }),
      'application/json',
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      valid: false,
      message: expect.stringMatching(/1 MiB/),
      attemptsRemaining: 2,
    });
  });
});

describe('attemptsRemaining follows BRUTE_FORCE_MAX_ATTEMPTS', () => {
  it('starts from the configured allowance', async () => {
    const t = await createTestApp({ env: { BRUTE_FORCE_MAX_ATTEMPTS: '5' } });
    try {
      const ip = freshIp();
      const seen: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/validate',
          remoteAddress: ip,
          payload: { apiKey: 'nope' },
        });
        seen.push(res.json().attemptsRemaining);
      }
      expect(seen).toEqual([4, 3, 2, 1, 0]);
    } finally {
      await t.close();
    }
  });
});
