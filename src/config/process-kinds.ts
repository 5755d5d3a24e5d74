import { splitList } from './kinds.js';
import { defineVariable, invalid, type Variable, type VariableOptions } from './variable.js';

/** The kinds of variable with a syntax of their own: roles, database URL, proxy trust, per-route limits. */

export const ROLE_NAMES = ['api', 'worker', 'scheduler'] as const;
export type Role = (typeof ROLE_NAMES)[number];

export type DatabaseConfig =
  { dialect: 'sqlite'; filename: string } | { dialect: 'postgres'; connectionString: string };

export interface RouteRateLimit {
  max: number;
  windowMs: number;
}

const isRole = (name: string): name is Role => (ROLE_NAMES as readonly string[]).includes(name);

/** A comma list of role names, each once; an empty list means every role. */
export function roles<O extends VariableOptions<readonly Role[]>>(options: O): Variable<readonly Role[], O> {
  const parse = (value: string): readonly Role[] => {
    const names = splitList(value);
    if (names.length === 0) return [...ROLE_NAMES];
    const unknown = names.find((name) => !isRole(name));
    if (unknown !== undefined) {
      invalid(`lists unknown role "${unknown}" (known: ${ROLE_NAMES.join(', ')})`);
    }
    return [...new Set(names.filter(isRole))];
  };
  return defineVariable<readonly Role[], O>(options, parse, (names) => names.join(','));
}

/** `sqlite:<path>`, `sqlite::memory:`, `sqlite:///absolute/path` or `postgres(ql)://…`. */
export function database<O extends VariableOptions<DatabaseConfig>>(options: O): Variable<DatabaseConfig, O> {
  const parse = (value: string): DatabaseConfig => {
    if (value.startsWith('sqlite:')) {
      const filename = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
      if (filename === '') invalid('names no SQLite file');
      return { dialect: 'sqlite', filename };
    }
    if (/^postgres(ql)?:\/\//.test(value)) {
      if (!URL.canParse(value)) invalid('is not a valid postgres:// URL');
      return { dialect: 'postgres', connectionString: value };
    }
    return invalid('must start with sqlite: or postgres://');
  };
  const format = (config: DatabaseConfig) =>
    config.dialect === 'sqlite' ? `sqlite:${config.filename}` : config.connectionString;
  return defineVariable(options, parse, format);
}

export type TrustProxy = boolean | number | string[];

/** `true`, `false`, a hop count, or a comma list of addresses and CIDRs. */
export function trustProxy<O extends VariableOptions<TrustProxy>>(options: O): Variable<TrustProxy, O> {
  const parse = (value: string): TrustProxy => {
    if (value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = splitList(value);
    const addressLike = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
    const bad = entries.find((entry) => !addressLike.test(entry));
    if (bad !== undefined) invalid(`must be true, a hop count or addresses/CIDRs, got "${bad}"`);
    return entries;
  };
  const format = (trust: TrustProxy) => (Array.isArray(trust) ? trust.join(',') : String(trust));
  return defineVariable(options, parse, format);
}

export type RouteRateLimits = Readonly<Record<string, RouteRateLimit>>;

/** `"POST /api/pull_requests=60/60000; GET /api/apps=1200/60000"`: requests per window (ms) per route. */
export function routeRateLimits<O extends VariableOptions<RouteRateLimits>>(
  options: O,
): Variable<RouteRateLimits, O> {
  const parse = (value: string): RouteRateLimits => {
    const routes: Record<string, RouteRateLimit> = {};
    for (const entry of value
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^([A-Z]+ \/\S*)=(\d+)\/(\d+)$/.exec(entry);
      if (!match?.[1] || !match[2] || !match[3]) {
        return invalid(`entry "${entry}" must look like "GET /api/apps=100/60000"`);
      }
      routes[match[1]] = { max: Number(match[2]), windowMs: Math.max(1, Number(match[3])) };
    }
    return routes;
  };
  const format = (routes: RouteRateLimits) =>
    Object.entries(routes)
      .map(([route, limit]) => `${route}=${limit.max}/${limit.windowMs}`)
      .join('; ');
  return defineVariable(options, parse, format);
}
