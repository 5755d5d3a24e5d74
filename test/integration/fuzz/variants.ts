import {
  BAD_QUERY_STRINGS,
  BAD_QUERY_VALUES,
  BAD_SEGMENTS,
  RAW_BODIES,
  WRONG_VALUES,
} from './malformed-values.js';

/**
 * Malformed variants of every operation of an OpenAPI document: bad path segments, bad query
 * values and query strings, unreadable or mistyped bodies, wrong content types, missing and extra
 * fields. Every variant is built from the document, so a new route is fuzzed without any change.
 */

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  default?: unknown;
  $ref?: string;
  [keyword: string]: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Variant {
  label: string;
  method: string;
  /** Raw request target, percent-encoding and all, sent as it is. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Local ports where nothing listens: URLs that pass validation lead nowhere, quickly. */
const DEAD_URL = 'http://127.0.0.1:9/fuzz';

function resolve(schema: JsonSchema | undefined, document: OpenApiDocument): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolve(document.components?.schemas?.[name], document);
  }
  return schema;
}

/** A value the schema accepts (as far as a simple reading goes), used as the base to break. */
export function exampleOf(schema: JsonSchema, document: OpenApiDocument, depth = 0): unknown {
  const resolved = resolve(schema, document);
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.enum?.length) return resolved.enum[0];
  const type = [resolved.type ?? 'object'].flat().find((each) => each !== 'null');
  switch (type) {
    case 'string':
      return exampleString(resolved);
    case 'integer':
    case 'number':
      return Math.max(1, resolved.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    default: {
      if (depth > 4) return {};
      const value: Record<string, unknown> = {};
      for (const name of resolved.required ?? []) {
        value[name] = exampleOf(resolved.properties?.[name] ?? {}, document, depth + 1);
      }
      return value;
    }
  }
}

function exampleString(schema: JsonSchema): string {
  switch (schema.format) {
    case 'http-url':
    case 'uri':
    case 'url':
      return DEAD_URL;
    case 'date-time':
    case 'iso-instant':
      return '2025-03-01T10:00:00.000Z';
    case 'calendar-date':
    case 'date':
      return '2025-03-01';
    case 'cron':
      return '*/5 * * * *';
    default:
      return 'fuzz';
  }
}

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => values[name] ?? '1');
}

/** A valid-looking value for each path parameter (an id that may exist, a date, a job name). */
function validPathValues(parameters: Parameter[], document: OpenApiDocument): Record<string, string> {
  const values: Record<string, string> = {};
  for (const parameter of parameters) {
    const example = exampleOf(parameter.schema ?? {}, document);
    values[parameter.name] = /id$/i.test(parameter.name) ? '1' : encodeURIComponent(String(example));
  }
  return values;
}

export function variantsOf(document: OpenApiDocument, key: string): Variant[] {
  const variants: Variant[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [lower, operation] of Object.entries(item)) {
      if (!METHODS.includes(lower)) continue;
      const method = lower.toUpperCase();
      const parameters = operation.parameters ?? [];
      const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
      const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
      const valid = validPathValues(pathParameters, document);
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const base = fillPath(template, valid);
      const jsonHeaders = { 'x-api-key': key, 'content-type': 'application/json' };
      const validBody = bodySchema ? JSON.stringify(exampleOf(bodySchema, document)) : undefined;
      const add = (label: string, path: string, headers: Record<string, string>, body?: string | Buffer) =>
        variants.push({ label: `${method} ${template} ${label}`, method, path, headers, body });
      const addJson = (label: string, path: string, body: string | undefined) =>
        add(label, path, body === undefined ? { 'x-api-key': key } : jsonHeaders, body);

      for (const parameter of pathParameters) {
        for (const segment of BAD_SEGMENTS) {
          addJson(
            `path ${parameter.name}=${segment.slice(0, 20)}`,
            fillPath(template, { ...valid, [parameter.name]: segment }),
            validBody,
          );
        }
      }
      for (const parameter of queryParameters) {
        for (const value of BAD_QUERY_VALUES) {
          addJson(
            `query ${parameter.name}=${value.slice(0, 20)}`,
            `${base}?${parameter.name}=${value}`,
            validBody,
          );
        }
        addJson(
          `query ${parameter.name} twice`,
          `${base}?${parameter.name}=1&${parameter.name}=2`,
          validBody,
        );
      }
      for (const query of BAD_QUERY_STRINGS)
        addJson(`query string ${query.slice(0, 20)}`, `${base}?${query}`, validBody);

      if (!bodySchema) {
        // A body where none is expected must not matter either.
        add('unexpected body', base, jsonHeaders, '{"unexpected":true');
        continue;
      }
      for (const [contentType, body] of RAW_BODIES) {
        add(
          `raw ${contentType} ${String(body).slice(0, 20)}`,
          base,
          { 'x-api-key': key, 'content-type': contentType },
          body,
        );
      }
      add('no body', base, { 'x-api-key': key });
      const example = exampleOf(bodySchema, document);
      if (example === null || typeof example !== 'object' || Array.isArray(example)) continue;
      const resolved = resolve(bodySchema, document);
      addJson('valid body', base, JSON.stringify(example));
      addJson('extra fields', base, JSON.stringify({ ...example, id: 99, createdAt: 'x', unknown: [1] }));
      for (const name of resolved.required ?? []) {
        const { [name]: _dropped, ...rest } = example as Record<string, unknown>;
        addJson(`missing ${name}`, base, JSON.stringify(rest));
      }
      for (const [name, property] of Object.entries(resolved.properties ?? {})) {
        for (const wrong of WRONG_VALUES) {
          addJson(
            `field ${name}=${JSON.stringify(wrong)?.slice(0, 20)}`,
            base,
            JSON.stringify({ ...example, [name]: wrong }),
          );
        }
        // One level down: each field of an object field, inside an otherwise valid object.
        const nested = resolve(property, document);
        const inner = exampleOf(nested, document);
        if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) continue;
        for (const innerName of Object.keys(nested.properties ?? {})) {
          for (const wrong of WRONG_VALUES) {
            const body = { ...example, [name]: { ...inner, [innerName]: wrong } };
            addJson(
              `field ${name}.${innerName}=${JSON.stringify(wrong)?.slice(0, 20)}`,
              base,
              JSON.stringify(body),
            );
          }
        }
      }
    }
  }
  return variants;
}
