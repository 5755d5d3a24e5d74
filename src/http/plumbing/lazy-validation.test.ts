import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { compileValidator } from './validation.js';

const Body = Type.Object(
  { title: Type.String({ minLength: 1 }), count: Type.Integer({ default: 1 }) },
  { additionalProperties: false },
);

describe('lazily compiled validators', () => {
  it('compile on the first call and report like ajv (errors, defaults, coercion of the root)', () => {
    const validate = compileValidator({ schema: Body, httpPart: 'body' });
    expect(validate.compiled).toBe(false);

    const bad = { title: '', extra: 1 };
    expect(validate(bad)).toBe(false);
    expect(validate.compiled).toBe(true);
    expect(validate.errors?.map((error) => [error.instancePath, error.keyword])).toEqual([
      ['/title', 'minLength'],
    ]);

    const good: Record<string, unknown> = { title: 'a', extra: 1 };
    expect(validate(good)).toBe(true);
    expect(validate.errors).toBeNull();
    expect(good).toEqual({ title: 'a', count: 1 });

    // Fastify hands the parent only to functions with `schemaEnv`; ajv then replaces a coerced root.
    const query = compileValidator({ schema: Type.Array(Type.Integer()), httpPart: 'querystring' });
    expect(query.schemaEnv).toBeTruthy();
    const request: Record<string, unknown> = { ids: '7' };
    // What Fastify passes (no more than the parent and the key).
    const context = { parentData: request, parentDataProperty: 'ids' } as unknown as Parameters<
      typeof query
    >[1];
    expect(query(request.ids, context)).toBe(true);
    expect(request.ids).toEqual([7]);
  });

  describe('in the app', () => {
    let t: TestApp;
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    beforeAll(async () => {
      compile.mockClear();
      t = await createTestApp();
    });
    afterAll(async () => {
      compile.mockRestore();
      await t.close();
    });

    it('compile nothing at start, then only what a request needs; bad input still gets the 400 envelope', async () => {
      expect(compile).not.toHaveBeenCalled();
      const res = await t.api({ method: 'POST', url: '/api/to_do_list', payload: { title: '', extra: 1 } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          statusCode: 400,
          details: [{ field: 'title', code: 'EMPTY_FIELD' }],
        },
      });
      // The body's schema (the route has no params or query string schema).
      expect(compile).toHaveBeenCalledTimes(1);
    });
  });
});
