import { Cron } from 'croner';

/** Raised at boot when a variable holds a value the service cannot run with. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Reads one variable; blank values count as unset so `FOO=` in a .env file means "default". */
export function readRaw(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function readString(env: Env, name: string, fallback: string): string {
  return readRaw(env, name) ?? fallback;
}

export function readInteger(
  env: Env,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number } = {},
): number {
  const raw = readRaw(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = bounds;
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

export function readUrl(
  env: Env,
  name: string,
  fallback: string | undefined,
  protocols: readonly string[] = ['http:', 'https:'],
): string | undefined {
  const raw = readRaw(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use one of ${protocols.join(', ')}, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = readRaw(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function readList(env: Env, name: string): string[] {
  const raw = readRaw(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A cron expression croner accepts (5 or 6 fields); checked here so a typo stops boot. */
export function readCron(env: Env, name: string, fallback: string, timezone: string): string {
  const expression = readRaw(env, name) ?? fallback;
  if (!isValidCron(expression, timezone)) {
    throw new ConfigError(name, `is not a valid cron expression: "${expression}"`);
  }
  return expression;
}

export function isValidCron(expression: string, timezone = 'UTC'): boolean {
  try {
    new Cron(expression, { paused: true, timezone }).stop();
    return true;
  } catch {
    return false;
  }
}

export function readTimezone(env: Env, name: string, fallback: string): string {
  const zone = readRaw(env, name) ?? fallback;
  // The default needs no check, and checking any zone maps in ICU's time-zone data (about 8 MiB
  // of an idle API process's RSS) that the API role otherwise never reads.
  if (zone === 'UTC') return zone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new ConfigError(name, `is not a known IANA time zone: "${zone}"`);
  }
  return zone;
}
