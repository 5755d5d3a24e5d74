import { randomBytes } from 'node:crypto';
import { type StaticDecode, type TSchema, TypeBoxError } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { ConfigError, type VariableProblem } from './config-error.js';
import { ConfigSchema } from './schema.js';
import { type Env, InvalidValue, nestTexts, type VariableInfo, variablesIn } from './variable.js';

export { ConfigError } from './config-error.js';
export { type DatabaseConfig, ROLE_NAMES, type Role, type RouteRateLimit } from './process-kinds.js';
export type { Env } from './variable.js';

type Settings = StaticDecode<typeof ConfigSchema>;

/** Readonly all the way down, as `loadConfig` freezes it; arrays keep the type their variable gives them. */
type Frozen<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

/** The settings of ConfigSchema, with the few that follow from other variables rather than from one. */
export type Config = Frozen<
  Omit<Settings, 'apiKey' | 'apiBaseUrl'> & {
    isProduction: boolean;
    /** API_BASE_URL, else this process's own port on the loopback address. */
    apiBaseUrl: string;
    /** API_SECURITY_KEY, else (never in production) a key made up for this run. */
    apiKey: string;
    /** True when no key was configured and one was made up for this run. */
    apiKeyGenerated: boolean;
  }
>;

const GENERATED_KEY_LENGTH = 40;

/**
 * Reads every variable of ConfigSchema once, blank counting as unset so that `FOO=` in a .env
 * file means "default". Every bad variable is reported at once (ConfigError); the frozen result
 * is passed down explicitly.
 */
export function loadConfig(env: Env): Config {
  const { apiKey, apiBaseUrl, ...settings } = decode(readTexts(env));
  return deepFreeze({
    ...settings,
    isProduction: settings.nodeEnv === 'production',
    apiBaseUrl: apiBaseUrl ?? `http://127.0.0.1:${settings.port}`,
    apiKey: apiKey ?? generateKey(),
    apiKeyGenerated: apiKey === undefined,
  });
}

type Texts = ReadonlyMap<string, string | undefined>;

const VARIABLES = [...variablesIn(ConfigSchema)];

// TypeBox's compiler rather than `Value`: the broker loads the compiler at every start anyway,
// while importing `@sinclair/typebox/value` costs 30–60 ms of CPU (measured on the 2-core box).
let compiledSchema: TypeCheck<typeof ConfigSchema> | undefined;

/** Each variable's text by name (trimmed, else its default, else undefined). */
function readTexts(env: Env): Texts {
  const texts = new Map<string, string | undefined>();
  for (const { info } of VARIABLES) {
    const raw = env[info.env]?.trim();
    texts.set(info.env, raw === undefined || raw === '' ? info.default : raw);
  }
  return texts;
}

/**
 * Decodes every variable at once; only when that fails is each decoded on its own, so that every
 * bad variable is named rather than the first.
 */
function decode(texts: Texts): Settings {
  if (!VARIABLES.some(({ info }) => missing(info, texts))) {
    compiledSchema ??= TypeCompiler.Compile(ConfigSchema);
    try {
      return compiledSchema.Decode(nestTexts(ConfigSchema, (info) => texts.get(info.env)));
    } catch (error) {
      if (refusalIn(error) === undefined) throw error;
    }
  }
  const [first, ...others] = findProblems(texts);
  if (!first) throw new Error('the configuration did not decode, yet no variable was refused');
  throw new ConfigError(first.variable, first.problem, ...others);
}

function findProblems(texts: Texts): VariableProblem[] {
  const problems: VariableProblem[] = [];
  for (const { schema, info } of VARIABLES) {
    const text = texts.get(info.env);
    const problem = text === undefined ? missing(info, texts) : refusalOf(schema, text);
    if (problem !== undefined) problems.push({ variable: info.env, problem });
  }
  return problems;
}

/** Why an unset variable may not be unset, if it may not. */
function missing(info: VariableInfo, texts: Texts): string | undefined {
  const { requiredWhen } = info;
  if (texts.get(info.env) !== undefined || !requiredWhen) return undefined;
  if (texts.get(requiredWhen.env) !== requiredWhen.is) return undefined;
  return `must be set when ${requiredWhen.env}=${requiredWhen.is}`;
}

function refusalOf(schema: TSchema, text: string): string | undefined {
  try {
    TypeCompiler.Compile(schema).Decode(text);
    return undefined;
  } catch (error) {
    const refusal = refusalIn(error);
    if (refusal === undefined) throw error;
    return refusal;
  }
}

/** The message of the parser's InvalidValue, which TypeBox hands on wrapped in its own error. */
function refusalIn(error: unknown): string | undefined {
  if (!(error instanceof TypeBoxError && 'error' in error)) return undefined;
  return error.error instanceof InvalidValue ? error.error.message : undefined;
}

function generateKey(): string {
  return randomBytes(GENERATED_KEY_LENGTH).toString('base64url').slice(0, GENERATED_KEY_LENGTH);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
