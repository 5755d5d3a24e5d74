import fastJsonStringify from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { LazySerializerCompiler } from './serialization.js';

type Schema = Record<string, unknown>;

/** A value with every property the schema names (arrays of two, the first branch of a union). */
function exampleOf(schema: Schema, shared: Record<string, unknown>, depth = 0): unknown {
  if (typeof schema.$ref === 'string') {
    return exampleOf(shared[schema.$ref.replace(/#$/, '')] as Schema, shared, depth);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key] as Schema[] | undefined;
    const branch = branches?.find((each) => each.type !== 'null') ?? branches?.[0];
    if (branch) return exampleOf(branch, shared, depth);
  }
  const type = [schema.type ?? 'object'].flat().find((each) => each !== 'null');
  switch (type) {
    case 'string':
      return schema.format === 'date-time' ? '2025-03-01T10:00:00.000Z' : `text "${depth}" <é>`;
    case 'integer':
      return 42;
    case 'number':
      return 4.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      if (depth > 6 || !schema.items) return [];
      return [
        exampleOf(schema.items as Schema, shared, depth + 1),
        exampleOf(schema.items as Schema, shared, depth + 1),
      ];
    default: {
      // A property outside the schema: both serializers must drop it alike.
      const value: Record<string, unknown> = { notInSchema: 'x' };
      if (depth > 6) return value;
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        value[name] = exampleOf(property, shared, depth + 1);
      }
      const extra = (schema.patternProperties ?? {}) as Record<string, Schema>;
      for (const property of Object.values(extra)) value.someKey = exampleOf(property, shared, depth + 1);
      if (typeof schema.additionalProperties === 'object') {
        value.otherKey = exampleOf(schema.additionalProperties as Schema, shared, depth + 1);
      }
      return value;
    }
  }
}

/** What Fastify's default compiler builds at start for the same schema. */
function eagerSerializer(schema: Schema, shared: Record<string, unknown>) {
  const external = { ...shared };
  if (typeof schema.$id === 'string') delete external[schema.$id];
  return fastJsonStringify(schema, { schema: external as Record<string, fastJsonStringify.Schema> });
}

describe('lazily compiled response serializers', () => {
  let t: TestApp;
  let compiler: LazySerializerCompiler;
  beforeAll(async () => {
    t = await createTestApp();
    compiler = t.app.serializerCompiler as unknown as LazySerializerCompiler;
  });
  afterAll(async () => t.close());

  it('generate no code at start, and only for the route and status that answers', async () => {
    expect(compiler.serializers.length).toBeGreaterThan(50);
    expect(compiler.serializers.filter((each) => each.compiled)).toEqual([]);

    const res = await t.api({ method: 'GET', url: '/api/apps' });
    expect(res.statusCode).toBe(200);
    const compiled = compiler.serializers.filter((each) => each.compiled);
    expect(compiled.map(({ target }) => [target.method, target.url, target.httpStatus])).toEqual([
      ['GET', '/api/apps', '200'],
    ]);
  });

  it('write the same bytes as the eager serializer for every route and status', () => {
    const shared = t.app.getSchemas();
    for (const serializer of compiler.serializers) {
      const schema = serializer.target.schema as Schema;
      const example = exampleOf(schema, shared);
      const label = `${serializer.target.method} ${serializer.target.url} ${serializer.target.httpStatus}`;
      expect(serializer(example), label).toBe(eagerSerializer(schema, shared)(example));
      expect(serializer.compiled, label).toBe(true);
    }
  });

  it('keep the error envelope of a refused request', async () => {
    const res = await t.api({ method: 'GET', url: '/api/apps/not-a-number' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', statusCode: 400 },
    });
  });
});
