import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';
import { hashToken } from '../../../../src/modules/push/push.repository.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('push device tokens API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['device_tokens']);

  const post = (url: string, payload: unknown) => t.api({ method: 'POST', url, payload: payload as object });
  const rows = () => t.database.db.selectFrom('device_tokens').selectAll().orderBy('id').execute();

  it('registers a token: 200 {success, message}, stored with its sha256', async () => {
    const res = await post('/api/push/register', { token: 'device-token-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: expect.any(String) });
    const [row] = await rows();
    expect(row).toMatchObject({ token: 'device-token-1', token_hash: hashToken('device-token-1') });
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is idempotent on every registration path and refreshes lastUsedAt', async () => {
    await post('/api/push/register', { token: 'same' });
    const [first] = await rows();
    await sleep(5);
    for (const url of ['/api/push/register', '/api/push/register-token', '/api/fcm/register-token']) {
      const res = await post(url, { token: 'same' });
      expect(res.statusCode, url).toBe(200);
    }
    const after = await rows();
    expect(after).toHaveLength(1);
    expect(after[0]!.created_at).toBe(first!.created_at);
    expect(after[0]!.last_used_at > first!.last_used_at).toBe(true);
  });

  it('unregisters: 200 whether or not the token was registered', async () => {
    await post('/api/push/register-token', { token: 'to-remove' });
    const removed = await post('/api/push/unregister', { token: 'to-remove' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: expect.any(String) });
    expect(await rows()).toHaveLength(0);
    const again = await post('/api/push/unregister', { token: 'to-remove' });
    expect(again.statusCode).toBe(200);
    expect(again.json().success).toBe(true);
  });

  it('accepts a 4096-character token and refuses longer, empty, blank or non-string ones', async () => {
    const longest = 'x'.repeat(4096);
    expect((await post('/api/push/register', { token: longest })).statusCode).toBe(200);
    expect((await rows())[0]!.token).toBe(longest);

    const cases: Array<[unknown, string]> = [
      [{ token: 'x'.repeat(4097) }, 'STRING_TOO_LONG'],
      [{ token: '' }, 'EMPTY_FIELD'],
      [{ token: '   ' }, 'EMPTY_FIELD'],
      [{ token: 42 }, 'INVALID_TYPE'],
      [{ token: null }, 'INVALID_TYPE'],
      [{}, 'REQUIRED_FIELD'],
    ];
    for (const url of ['/api/push/register', '/api/push/register-token', '/api/push/unregister']) {
      for (const [body, code] of cases) {
        const res = await post(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
        expect(res.json().error.details[0]).toMatchObject({ field: 'token', code });
      }
      const empty = await post(url, undefined);
      expect(empty.json().error.details[0]).toMatchObject({ field: 'body', code: 'EMPTY_BODY' });
    }
    expect(await rows()).toHaveLength(1);
  });

  it('ignores surrounding whitespace of a pasted token', async () => {
    await post('/api/push/register', { token: ' pasted-token\n' });
    expect((await rows()).map((row) => row.token)).toEqual(['pasted-token']);
    await post('/api/push/unregister', { token: 'pasted-token' });
    expect(await rows()).toHaveLength(0);
  });

  it('requires the API key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/push/register', payload: { token: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});
