import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { isValidCron } from '../../shared/cron.js';
import { isCalendarDate, parseIsoInstant } from '../../shared/time.js';
import { addNulCheck, withNulCheck } from './nul-check.js';
import { addQueryDecoding, JSON_KEYWORD } from './query-decoding.js';
import { type DetailCode, type ValidationDetail, ValidationError } from '../../shared/errors.js';

/** Schema keyword letting a schema choose the detail code its failures report. */
export const ERROR_CODE_KEYWORD = 'x-error-code';

/** Custom formats, each checked by ajv so that every problem of a body is reported at once. */
const CUSTOM_FORMATS: Record<string, { validate: (value: string) => boolean; code: DetailCode }> = {
  'http-url': { validate: isHttpUrl, code: 'INVALID_URL' },
  cron: { validate: (value) => isValidCron(value), code: 'INVALID_FORMAT' },
  'iso-instant': { validate: (value) => parseIsoInstant(value) !== undefined, code: 'INVALID_FORMAT' },
  'calendar-date': { validate: isCalendarDate, code: 'INVALID_FORMAT' },
};

/**
 * An absolute http(s) URL with a host. The prefix fixes the scheme, and the URL standard refuses
 * an http(s) URL without a host, so asking whether it parses is enough: `URL.canParse` answers
 * without building the URL object (half the time of `new URL` on every to-do write).
 */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value) && URL.canParse(value);
}

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: true,
    useDefaults: true,
    verbose: true,
    strict: false,
    ...options,
  });
  addFormats.default(ajv);
  for (const [name, format] of Object.entries(CUSTOM_FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate: format.validate });
  }
  ajv.addKeyword({ keyword: ERROR_CODE_KEYWORD, schemaType: 'string' });
  addQueryDecoding(ajv);
  addNulCheck(ajv);
  return ajv;
}

// Bodies are never coerced: `{"watching": "yes"}` must be INVALID_TYPE, not silently true.
const bodyAjv = createAjv({ coerceTypes: false });
const urlAjv = createAjv({ coerceTypes: 'array' });

/** The context ajv takes as second argument (the parent object, for replacing the root). */
type DataValidationCxt = Parameters<ValidateFunction>[1];

/**
 * Fastify compiles every route's validators as it starts, most of which a given process never
 * runs; each compiled one keeps its generated source and code in the heap. This hands Fastify a
 * stand-in that compiles the schema on its first call and then delegates to it: same checks,
 * same `errors`. Fastify passes the parent object (so that ajv may replace a coerced root value)
 * only to functions carrying `schemaEnv`, which every ajv validator has: the stand-in has it too.
 */
export function compileValidator({ schema, httpPart }: { schema: object; httpPart?: string }): LazyValidator {
  const ajv = httpPart === 'body' ? bodyAjv : urlAjv;
  let compiled: ValidateFunction | undefined;
  const compile = () => (compiled ??= ajv.compile(withNulCheck(schema)));
  const validate = ((data: unknown, context?: DataValidationCxt) => {
    const validator = compile();
    const valid = validator(data, context);
    validate.errors = validator.errors;
    return valid;
  }) as LazyValidator;
  validate.errors = null;
  Object.defineProperties(validate, {
    schemaEnv: { get: () => compile().schemaEnv },
    compiled: { get: () => compiled !== undefined },
  });
  return validate;
}

export interface LazyValidator {
  (data: unknown, context?: DataValidationCxt): boolean;
  errors?: ErrorObject[] | null;
  readonly schemaEnv: ValidateFunction['schemaEnv'];
  /** Whether the schema has been compiled yet (it is, on the first call). */
  readonly compiled: boolean;
}

/** Turns the errors of one request part into detail entries, one per field and problem. */
export function toValidationError(
  errors: FastifySchemaValidationError[],
  part: string | undefined,
  input: unknown,
): ValidationError {
  const details: ValidationDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors as ErrorObject[]) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const field = fieldName(error, part);
    const code = detailCode(error);
    const key = `${field}|${code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const detail: ValidationDetail = { field, code, message: detailMessage(field, code, error) };
    const value = error.keyword === 'required' ? undefined : valueAt(input, error.instancePath);
    if (value !== undefined && isEchoable(value) && !isSecret(error)) detail.value = value;
    details.push(detail);
  }
  if (details.length === 0) {
    details.push({
      field: part === 'body' ? 'body' : String(part),
      code: 'INVALID_VALUE',
      message: 'Invalid request',
    });
  }
  return new ValidationError(details);
}

function fieldName(error: ErrorObject, part: string | undefined): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') {
    segments.push(String((error.params as { missingProperty: string }).missingProperty));
  }
  if (segments.length === 0) return part === 'body' || part === undefined ? 'body' : part;
  return segments.join('.');
}

function detailCode(error: ErrorObject): DetailCode {
  const custom: unknown = error.parentSchema?.[ERROR_CODE_KEYWORD];
  // The override names what a pattern or format means (an id, a non-blank text), not a length.
  if (typeof custom === 'string' && (error.keyword === 'pattern' || error.keyword === 'format')) {
    return custom as DetailCode;
  }
  switch (error.keyword) {
    case 'required':
      return 'REQUIRED_FIELD';
    case 'type':
      return 'INVALID_TYPE';
    case 'maxLength':
      return 'STRING_TOO_LONG';
    case 'minLength':
      return (error.params as { limit: number }).limit <= 1 ? 'EMPTY_FIELD' : 'INVALID_VALUE';
    case 'format': {
      const format = (error.params as { format: string }).format;
      if (format === 'uri' || format === 'url') return 'INVALID_URL';
      return CUSTOM_FORMATS[format]?.code ?? 'INVALID_FORMAT';
    }
    case 'pattern':
    case JSON_KEYWORD:
      return 'INVALID_FORMAT';
    default:
      return 'INVALID_VALUE';
  }
}

function detailMessage(field: string, code: DetailCode, error: ErrorObject): string {
  switch (code) {
    case 'REQUIRED_FIELD':
      return `${field} is required`;
    case 'EMPTY_FIELD':
      return `${field} must not be empty`;
    case 'STRING_TOO_LONG':
      return `${field} must be at most ${(error.params as { limit: number }).limit} characters`;
    case 'INVALID_TYPE':
      return `${field} must be of type ${String((error.params as { type: unknown }).type)}`;
    case 'INVALID_URL':
      return `${field} must be an absolute http(s) URL`;
    case 'INVALID_ID':
      return `${field} must be a positive integer`;
    case 'INVALID_FORMAT': {
      const format = (error.params as { format?: string }).format;
      if (format === 'cron') return `${field} must be a valid cron expression`;
      if (format === 'iso-instant') return `${field} must be an ISO 8601 date or date-time`;
      if (format === 'calendar-date') return `${field} must be a real date in YYYY-MM-DD form`;
      if (error.keyword === JSON_KEYWORD) return `${field} ${error.message ?? 'is not valid JSON'}`;
      return `${field} has an invalid format`;
    }
    default:
      if (error.keyword === 'enum') {
        const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
        return `${field} must be one of: ${allowed.map(String).join(', ')}`;
      }
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

function valueAt(input: unknown, pointer: string): unknown {
  let current = input;
  for (const segment of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

/**
 * A field marked `writeOnly` in its schema (a secret: webhook signing secrets) is never echoed,
 * whatever is wrong with it: a rejected secret is still somebody's secret.
 */
function isSecret(error: ErrorObject): boolean {
  return (error.parentSchema as { writeOnly?: unknown } | undefined)?.writeOnly === true;
}

/** Echo short scalar values only: a 1 MiB string or a nested object does not belong in an error. */
function isEchoable(value: unknown): boolean {
  if (typeof value === 'string') return value.length <= 200;
  return typeof value === 'number' || typeof value === 'boolean' || value === null;
}

/** A `PUT` whose body holds none of the updatable fields is an empty body (docs/contract-notes.md, "Validation"). */
export function requireSomeField(body: object, fields: readonly string[]): void {
  if (!fields.some((field) => (body as Record<string, unknown>)[field] !== undefined)) {
    throw ValidationError.single(
      'body',
      'EMPTY_BODY',
      `Request body must contain at least one of: ${fields.join(', ')}`,
    );
  }
}
