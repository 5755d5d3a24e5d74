import type { Ajv, ErrorObject } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';

/**
 * PostgreSQL cannot store the NUL character (U+0000) in text and refuses the whole statement,
 * while SQLite stores it silently. To answer the same on both, no string of any request part
 * (body, query, path, headers) may contain it: every route schema is compiled with this keyword
 * at its root, so no route can forget the check, and free-form values (such as the parameters
 * object of a trigger configuration) are covered as well as declared string fields.
 */
export const NO_NUL_KEYWORD = 'x-no-nul';

const NUL = '\u0000';

/** JSON-pointer segment of an object key or array index. */
const pointerSegment = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * Pointers of every string (and object key) holding a NUL. Walked with an explicit stack, not
 * recursion, so a deeply nested document cannot overflow the call stack.
 */
export function pathsWithNul(value: unknown): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) found.push(path);
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: path + pointerSegment(index) }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const itemPath = path + pointerSegment(key);
        if (key.includes(NUL)) found.push(itemPath);
        else pending.push({ value: item, path: itemPath });
      }
    }
  }
  return found.sort();
}

/**
 * Whether any string or key holds a NUL. The check runs on every request part of every route, so
 * the common case (none) walks values only, without building the pointers `pathsWithNul` reports.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes(NUL)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (key.includes(NUL)) return true;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

type NulCheck = ((
  enabled: boolean,
  data: unknown,
  parentSchema?: unknown,
  context?: DataValidationCxt,
) => boolean) & { errors?: Partial<ErrorObject>[] };

export function addNulCheck(ajv: Ajv): void {
  const check: NulCheck = (enabled, data, _parentSchema, context) => {
    if (!enabled || !containsNul(data)) return true;
    const paths = pathsWithNul(data);
    check.errors = paths.map((path) => ({
      keyword: NO_NUL_KEYWORD,
      instancePath: (context?.instancePath ?? '') + path,
      message: 'must not contain the NUL character (\\u0000)',
      params: {},
    }));
    return false;
  };
  ajv.addKeyword({ keyword: NO_NUL_KEYWORD, schemaType: 'boolean', errors: true, validate: check });
}

/** The schema of a request part with the NUL check at its root. */
export const withNulCheck = (schema: object): object => ({ ...schema, [NO_NUL_KEYWORD]: true });
