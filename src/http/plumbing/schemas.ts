import { type TSchema, type Static, Type, type SchemaOptions } from '@sinclair/typebox';
import { FLAG_KEYWORD, JSON_KEYWORD } from './query-decoding.js';
import { ERROR_CODE_KEYWORD } from './validation.js';

/**
 * Input that may also be `null` (to clear a value). Expressed as a JSON-schema type array rather
 * than `anyOf`, so a bad value yields one precise error instead of one per union branch.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string | string[] }).type;
  const types = Array.isArray(type) ? type : type ? [type] : [];
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [...types, 'null'] });
}

/**
 * A secret the client sends and never gets back (`writeOnly`): a validation error about it names
 * the field and the problem but never echoes the value (validation.ts).
 */
export const Secret = (minLength: number, maxLength: number) =>
  Type.String({ minLength, maxLength, writeOnly: true });

/**
 * Output value that may be null. A schema with a single `type` becomes a type array: with `anyOf`
 * the serialiser would run ajv (format checks included) on every value to pick a branch, which
 * showed up as several percent of a list request in a CPU profile.
 */
export function OrNull<T extends TSchema>(schema: T) {
  return typeof (schema as { type?: unknown }).type === 'string'
    ? Nullable(schema)
    : Type.Union([schema, Type.Null()]);
}

/**
 * A string from a fixed list, as a plain `enum` (a union of literals would serialise through
 * `anyOf`, which makes the serialiser validate each value with ajv).
 */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

/** Path id: a positive integer written in decimal; anything else is 400 INVALID_ID. */
export const IdParam = Type.String({ pattern: '^[1-9][0-9]{0,15}$', [ERROR_CODE_KEYWORD]: 'INVALID_ID' });
export const IdParams = Type.Object({ id: IdParam });

/** A boolean query flag written `true`, `false`, `1` or `0` (anything else is INVALID_VALUE). */
export const QueryFlag = (options: SchemaOptions = {}) =>
  Type.Unsafe<boolean>({
    type: 'string',
    enum: ['true', 'false', '1', '0'],
    [ERROR_CODE_KEYWORD]: 'INVALID_VALUE',
    [FLAG_KEYWORD]: true,
    ...options,
  });

/**
 * A query parameter holding URL-encoded JSON that must match `schema` (else INVALID_FORMAT); the
 * handler receives the decoded value, with the schema's defaults filled in.
 */
export const JsonQuery = <T extends TSchema>(schema: T, options: SchemaOptions = {}) =>
  Type.Unsafe<Static<T>>({ type: 'string', [JSON_KEYWORD]: schema, ...options });

/** Non-blank text with a maximum length (blank → EMPTY_FIELD, too long → STRING_TOO_LONG). */
export const Text = (maxLength?: number, options: SchemaOptions = {}) =>
  Type.String({
    minLength: 1,
    pattern: '\\S',
    [ERROR_CODE_KEYWORD]: 'EMPTY_FIELD',
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...options,
  });

export const HttpUrl = (maxLength: number) => Type.String({ format: 'http-url', maxLength });

export const Timestamp = Type.String({ format: 'date-time', examples: ['2025-01-31T09:00:00.000Z'] });

export const SuccessMessage = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const ErrorEnvelopeSchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      message: Type.String(),
      code: Type.String(),
      statusCode: Type.Integer(),
      details: Type.Optional(Type.Unknown()),
      timestamp: Type.String(),
      path: Type.String(),
      method: Type.String(),
      requestId: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', title: 'ErrorEnvelope' },
);

/** The flat 401 body of the authentication check (spec: `{error, code: UNAUTHORIZED}`). */
export const UnauthorizedSchema = Type.Object(
  { success: Type.Literal(false), error: Type.String(), code: Type.Literal('UNAUTHORIZED') },
  { $id: 'Unauthorized', title: 'Unauthorized' },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [status, Type.Ref(status === 401 ? UnauthorizedSchema : ErrorEnvelopeSchema)]),
  );

/** The id of a path parameter as a number (the schema already guarantees the digits). */
export const toId = (raw: string): number => Number(raw);
