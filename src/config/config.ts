import { randomBytes } from 'node:crypto';
import type { StaticDecode } from '@sinclair/typebox';
import { TransformDecodeError, Value } from '@sinclair/typebox/value';
import { ConfigError, type VariableProblem } from './config-error.js';
import { ConfigSchema } from './schema.js';
import { type Env, InvalidValue, nestTexts, variablesIn } from './variable.js';

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
  const texts = readTexts(env);
  const [first, ...others] = findProblems(texts);
  if (first) throw new ConfigError(first.variable, first.problem, ...others);
  const { apiKey, apiBaseUrl, ...settings } = Value.Decode(
    ConfigSchema,
    nestTexts(ConfigSchema, (info) => texts.get(info.env)),
  );
  return deepFreeze({
    ...settings,
    isProduction: settings.nodeEnv === 'production',
    apiBaseUrl: apiBaseUrl ?? `http://127.0.0.1:${settings.port}`,
    apiKey: apiKey ?? generateKey(),
    apiKeyGenerated: apiKey === undefined,
  });
}

/** Each variable's text by name (trimmed, else its default, else undefined). */
function readTexts(env: Env): Map<string, string | undefined> {
  const texts = new Map<string, string | undefined>();
  for (const { info } of variablesIn(ConfigSchema)) {
    const raw = env[info.env]?.trim();
    texts.set(info.env, raw === undefined || raw === '' ? info.default : raw);
  }
  return texts;
}

/** Decodes each variable on its own, so that every bad one is named rather than the first. */
function findProblems(texts: ReadonlyMap<string, string | undefined>): VariableProblem[] {
  const problems: VariableProblem[] = [];
  for (const { schema, info } of variablesIn(ConfigSchema)) {
    const text = texts.get(info.env);
    const { requiredWhen } = info;
    if (text === undefined) {
      if (requiredWhen && texts.get(requiredWhen.env) === requiredWhen.is) {
        problems.push({
          variable: info.env,
          problem: `must be set when ${requiredWhen.env}=${requiredWhen.is}`,
        });
      }
      continue;
    }
    try {
      Value.Decode(schema, text);
    } catch (error) {
      if (!(error instanceof TransformDecodeError && error.error instanceof InvalidValue)) throw error;
      problems.push({ variable: info.env, problem: error.error.message });
    }
  }
  return problems;
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
