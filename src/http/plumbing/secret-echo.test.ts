import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';

interface Detail {
  field: string;
  code: string;
  value?: unknown;
}

describe('validation details never echo a secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const create = (payload: object) => t.api({ method: 'POST', url: '/api/webhooks', payload });

  it('names a rejected webhook secret without its value, and still echoes other fields', async () => {
    for (const secret of ['short-secret-15', 'x'.repeat(201)]) {
      const res = await create({ url: 'https://hooks.example.com/a', kind: 'generic', secret, name: 7 });
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toContain(secret);
      const details = res.json().error.details as Detail[];
      const secretDetail = details.find((detail) => detail.field === 'secret');
      expect(secretDetail).toMatchObject({ code: expect.any(String) });
      expect(secretDetail).not.toHaveProperty('value');
      // Fields that are not secrets keep their echoed value.
      expect(details.find((detail) => detail.field === 'name')).toMatchObject({ value: 7 });
    }
  });

  it('does not echo a secret of the wrong type either', async () => {
    const res = await create({ url: 'https://hooks.example.com/a', kind: 'generic', secret: 123456 });
    expect(res.statusCode).toBe(400);
    const details = res.json().error.details as Detail[];
    expect(details.find((detail) => detail.field === 'secret')).toEqual({
      field: 'secret',
      code: 'INVALID_TYPE',
      message: expect.any(String),
    });
  });
});
