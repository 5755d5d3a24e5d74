import {
  KindGuard,
  type TOptional,
  type TSchema,
  type TString,
  type TTransform,
  Type,
} from '@sinclair/typebox';

/** The process environment, or any stand-in for it (tests, the CLI's `--roles`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What the schema says about one variable, beside how to parse it. */
export interface VariableOptions<T> {
  /** The environment variable's name. */
  env: string;
  /** What it sets, for the README's configuration table. */
  description: string;
  /** The value used when the variable is unset or blank. Without one, unset leaves the setting undefined. */
  default?: T;
  /** What leaving it unset means, for the README, when that is more than "unset" (no default). */
  unset?: string;
  /** The variable must be set whenever another one has the given value. */
  requiredWhen?: { env: string; is: string };
}

/** The metadata a variable's schema carries, its default written as it would be in the environment. */
export interface VariableInfo {
  env: string;
  description: string;
  default?: string;
  unset?: string;
  requiredWhen?: { env: string; is: string };
}

/** A variable decodes from its text to T; without a default it is an optional property. */
export type Variable<T, O> = O extends { default: unknown }
  ? TTransform<TString, T>
  : TOptional<TTransform<TString, T>>;

/** Thrown by a parser for text it cannot accept; the message reads after the variable's name. */
export class InvalidValue extends Error {}

export function invalid(problem: string): never {
  throw new InvalidValue(problem);
}

/**
 * One variable: a TypeBox transform from the environment's text to the setting, carrying its
 * name, description and default in the schema (where the README's table reads them).
 */
export function defineVariable<T, O extends VariableOptions<T>>(
  options: O,
  parse: (text: string) => T,
  format: (value: T) => string,
): Variable<T, O> {
  const info: VariableInfo = { env: options.env, description: options.description };
  if (options.default !== undefined) info.default = format(options.default);
  if (options.unset !== undefined) info.unset = options.unset;
  if (options.requiredWhen !== undefined) info.requiredWhen = options.requiredWhen;
  const variable = Type.Transform(Type.String(info)).Decode(parse).Encode(format);
  // Which of the two types this is follows from `options.default`, which TypeScript sees in O
  // but cannot connect to the branch taken here.
  return (info.default === undefined ? Type.Optional(variable) : variable) as Variable<T, O>;
}

/** The variable metadata of a schema, or undefined for a schema that groups variables. */
export function variableInfo(schema: TSchema): VariableInfo | undefined {
  const env: unknown = schema.env;
  const description: unknown = schema.description;
  if (typeof env !== 'string' || typeof description !== 'string') return undefined;
  // The rest was written by defineVariable, the only maker of schemas with an `env`.
  const { default: fallback, unset, requiredWhen } = schema as Omit<VariableInfo, 'env' | 'description'>;
  return { env, description, default: fallback, unset, requiredWhen };
}

export interface VariableEntry {
  /** Where the setting sits in the configuration object, e.g. ['auth', 'bruteForceMaxAttempts']. */
  path: readonly string[];
  schema: TSchema;
  info: VariableInfo;
}

/** Every variable of a schema of nested objects, in the order the schema lists them. */
export function* variablesIn(schema: TSchema, path: readonly string[] = []): Generator<VariableEntry> {
  const info = variableInfo(schema);
  if (info) {
    yield { path, schema, info };
    return;
  }
  if (!KindGuard.IsObject(schema)) return;
  for (const [key, child] of Object.entries(schema.properties)) yield* variablesIn(child, [...path, key]);
}

/**
 * The variables' texts in the shape of the schema's nested objects, ready to be decoded;
 * variables whose text is undefined are left out.
 */
export function nestTexts(
  schema: TSchema,
  textOf: (info: VariableInfo) => string | undefined,
): Record<string, unknown> {
  const node: Record<string, unknown> = {};
  if (!KindGuard.IsObject(schema)) return node;
  for (const [key, child] of Object.entries(schema.properties)) {
    const info = variableInfo(child);
    const value = info ? textOf(info) : nestTexts(child, textOf);
    if (value !== undefined) node[key] = value;
  }
  return node;
}
