import { isValidCron } from '../shared/cron.js';
import { defineVariable, invalid, type Variable, type VariableOptions } from './variable.js';

/**
 * The kinds of variable the schema is written in. Each is one TypeBox transform: the text of the
 * environment (trimmed; blank counts as unset) in, the typed setting out, with a message that
 * reads after the variable's name when the text is refused.
 */

const asText = (value: string) => value;

export function text<O extends VariableOptions<string>>(options: O): Variable<string, O> {
  return defineVariable(options, asText, asText);
}

export interface IntegerOptions extends VariableOptions<number> {
  /** Smallest accepted value (default 0). */
  minimum?: number;
  maximum?: number;
}

export function integer<O extends IntegerOptions>(options: O): Variable<number, O> {
  const { minimum = 0, maximum = Number.MAX_SAFE_INTEGER } = options;
  const parse = (value: string) => {
    if (!/^-?\d+$/.test(value)) invalid(`must be an integer, got "${value}"`);
    const number = Number(value);
    if (number < minimum || number > maximum) {
      invalid(`must be between ${minimum} and ${maximum}, got ${number}`);
    }
    return number;
  };
  return defineVariable(options, parse, String);
}

/** A number between 0 and 1, written as a decimal (`0.05`). */
export function fraction<O extends VariableOptions<number>>(options: O): Variable<number, O> {
  const parse = (value: string) => {
    if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value))
      invalid(`must be a number between 0 and 1, got "${value}"`);
    return Number(value);
  };
  return defineVariable(options, parse, String);
}

export interface UrlOptions extends VariableOptions<string> {
  /** Accepted schemes (default http: and https:). */
  protocols?: readonly string[];
}

/** An absolute URL, kept without trailing slashes so that paths can be appended. */
export function url<O extends UrlOptions>(options: O): Variable<string, O> {
  const { protocols = ['http:', 'https:'] } = options;
  const parse = (value: string) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return invalid(`must be an absolute URL, got "${value}"`);
    }
    if (!protocols.includes(parsed.protocol)) {
      invalid(`must use one of ${protocols.join(', ')}, got "${parsed.protocol}"`);
    }
    return value.replace(/\/+$/, '');
  };
  return defineVariable(options, parse, asText);
}

/** One of a few words, spelt exactly. */
export function oneOf<const V extends readonly string[], O extends VariableOptions<V[number]>>(
  values: V,
  options: O,
): Variable<V[number], O> {
  const parse = (value: string): V[number] =>
    values.find((allowed) => allowed === value) ??
    invalid(`must be one of ${values.join(', ')}, got "${value}"`);
  return defineVariable(options, parse, asText);
}

/** `true` or `false`. */
export function flag<O extends VariableOptions<boolean>>(options: O): Variable<boolean, O> {
  const parse = (value: string) => {
    if (value !== 'true' && value !== 'false') invalid(`must be one of true, false, got "${value}"`);
    return value === 'true';
  };
  return defineVariable(options, parse, String);
}

/** The items of a comma list, trimmed, blanks dropped. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const joinList = (items: readonly unknown[]) => items.join(',');

/** A comma list of words, e.g. `CORS_ORIGINS=https://a.example,https://b.example`. */
export function list<O extends VariableOptions<readonly string[]>>(
  options: O,
): Variable<readonly string[], O> {
  return defineVariable<readonly string[], O>(options, splitList, joinList);
}

/** A comma list of non-negative millisecond delays, e.g. `1000,4000,16000`; an empty list means the default. */
export function delays<O extends VariableOptions<readonly number[]> & { default: readonly number[] }>(
  options: O,
): Variable<readonly number[], O> {
  const parse = (value: string): readonly number[] => {
    const items = splitList(value);
    if (items.length === 0) return [...options.default];
    return items.map((item) =>
      /^\d{1,9}$/.test(item) ? Number(item) : invalid(`must list delays in milliseconds, got "${item}"`),
    );
  };
  return defineVariable<readonly number[], O>(options, parse, joinList);
}

/** A cron expression croner accepts (5 or 6 fields), checked here so that a typo stops boot. */
export function cron<O extends VariableOptions<string>>(options: O): Variable<string, O> {
  const parse = (value: string) =>
    isValidCron(value) ? value : invalid(`is not a valid cron expression: "${value}"`);
  return defineVariable(options, parse, asText);
}

/** An IANA time zone name, e.g. `Europe/Paris`. */
export function timezone<O extends VariableOptions<string>>(options: O): Variable<string, O> {
  const parse = (zone: string) => {
    // UTC needs no check, and checking any zone maps in ICU's time-zone data (about 8 MiB of an
    // idle API process's RSS) that the API role otherwise never reads.
    if (zone === 'UTC') return zone;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      invalid(`is not a known IANA time zone: "${zone}"`);
    }
    return zone;
  };
  return defineVariable(options, parse, asText);
}
