import { type RouteDefinition, SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchema } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';

/** What Fastify asks a serializer compiler for: one response schema of one route. */
export type ResponseSchemaDef = FastifyRouteSchemaDef<FastifySchema>;

export interface LazySerializer {
  (data: unknown): string;
  /** The route, status and schema it serializes for. */
  readonly target: ResponseSchemaDef;
  /** Whether its code has been generated yet (it is, on its first answer). */
  readonly compiled: boolean;
}

export interface LazySerializerCompiler {
  (target: ResponseSchemaDef): LazySerializer;
  /** Every serializer handed to Fastify so far, compiled or not. */
  readonly serializers: readonly LazySerializer[];
}

// Fastify's own default: fast-json-stringify over the shared schemas (`addSchema`).
const buildDefault = SerializerSelector();

/**
 * Fastify generates a fast-json-stringify function for every response schema of every route as
 * it starts, most of which a given process never answers with (about 80 of them: their source
 * and code stay in the heap). This compiler hands Fastify a stand-in per response schema that
 * generates the real function with Fastify's default compiler on its first call, over the shared
 * schemas known by then (all are added before any request is served), so the bytes sent are the
 * same as with the default.
 *
 * Each schema gets a compiler of its own, as the default one drops a schema from its shared set
 * once a route's own root schema carries that `$id`.
 */
export function createSerializerCompiler(
  sharedSchemas: () => Record<string, unknown>,
): LazySerializerCompiler {
  const serializers: LazySerializer[] = [];
  const compiler = (target: ResponseSchemaDef): LazySerializer => {
    let serialize: ((data: unknown) => string) | undefined;
    const lazy = ((data: unknown) => {
      serialize ??= buildDefault(sharedSchemas(), undefined)(target as RouteDefinition) as (
        data: unknown,
      ) => string;
      return serialize(data);
    }) as LazySerializer;
    Object.defineProperties(lazy, {
      target: { value: target },
      compiled: { get: () => serialize !== undefined },
    });
    serializers.push(lazy);
    return lazy;
  };
  return Object.assign(compiler, { serializers });
}
