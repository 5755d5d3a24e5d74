import { Ajv, type AnySchemaObject, type ErrorObject } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';

/**
 * Query parameters that carry more than a string: a boolean flag (`force=1`) or a JSON document
 * (`enrichments={"includeDetails":false}`). They are checked and decoded by the route's schema in
 * the same validation pass as every other parameter, so one 400 names every bad parameter at once
 * and the handler receives the decoded value instead of the raw text.
 */

/** Keyword of a flag parameter: `true`/`1` become true, `false`/`0` become false. */
export const FLAG_KEYWORD = 'x-query-flag';
/** Keyword holding the schema of a parameter's JSON-decoded value. */
export const JSON_KEYWORD = 'x-query-json';

export const FLAG_VALUES: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

// JSON values are checked strictly: `{"includeDetails":"yes"}` is not a boolean.
const documentAjv = new Ajv({ allErrors: true, useDefaults: true, strict: false, coerceTypes: false });

type DecodingCheck = ((data: unknown, context?: DataValidationCxt) => boolean) & {
  errors?: Partial<ErrorObject>[];
};

function replaceValue(context: DataValidationCxt | undefined, value: unknown): void {
  if (context?.parentData !== undefined && context.parentDataProperty !== undefined) {
    (context.parentData as Record<string | number, unknown>)[context.parentDataProperty] = value;
  }
}

/** Says in plain words what is wrong inside the decoded document (`unknown key "bogus"`). */
function describeDocumentError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '' : `"${error.instancePath.slice(1).replace(/\//g, '.')}" `;
  switch (error.keyword) {
    case 'additionalProperties':
      return `has an unknown key "${String((error.params as { additionalProperty: string }).additionalProperty)}"`;
    case 'type':
      return `${at}must be ${error.instancePath === '' ? 'a JSON ' : 'a '}${String((error.params as { type: string }).type)}`;
    default:
      return `${at}${error.message ?? 'is invalid'}`;
  }
}

function compileJsonCheck(schema: AnySchemaObject): DecodingCheck {
  const validateDocument = documentAjv.compile(schema);
  const check: DecodingCheck = (data, context) => {
    let document: unknown;
    try {
      document = JSON.parse(String(data));
    } catch {
      check.errors = [{ keyword: JSON_KEYWORD, message: 'must be URL-encoded JSON', params: {} }];
      return false;
    }
    if (!validateDocument(document)) {
      check.errors = [
        {
          keyword: JSON_KEYWORD,
          message: (validateDocument.errors ?? []).map(describeDocumentError).join('; '),
          params: {},
        },
      ];
      return false;
    }
    replaceValue(context, document);
    return true;
  };
  return check;
}

/** Teaches an Ajv instance the two decoding keywords. */
export function addQueryDecoding(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: FLAG_KEYWORD,
    type: 'string',
    modifying: true,
    schemaType: 'boolean',
    validate: (_enabled: boolean, data: string, _schema?: AnySchemaObject, context?: DataValidationCxt) => {
      // Values outside the list are reported by `enum`; they are left as they are.
      const flag = FLAG_VALUES[data];
      if (flag !== undefined) replaceValue(context, flag);
      return true;
    },
  });
  ajv.addKeyword({
    keyword: JSON_KEYWORD,
    type: 'string',
    modifying: true,
    errors: true,
    schemaType: 'object',
    compile: (schema: AnySchemaObject) => compileJsonCheck(schema),
  });
}
