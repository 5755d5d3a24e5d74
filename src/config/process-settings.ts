import { ConfigError, type Env, readList, readRaw } from './env-parsers.js';

/** The process side of the configuration: its roles, database, proxy trust and per-route rate limits. */

export const ROLE_NAMES = ['api', 'worker', 'scheduler'] as const;
export type Role = (typeof ROLE_NAMES)[number];

export type DatabaseConfig =
  { dialect: 'sqlite'; filename: string } | { dialect: 'postgres'; connectionString: string };

export interface RouteRateLimit {
  max: number;
  windowMs: number;
}

export function readRoles(env: Env): Role[] {
  const names = readList(env, 'ROLES');
  if (names.length === 0) return [...ROLE_NAMES];
  for (const name of names) {
    if (!(ROLE_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError('ROLES', `lists unknown role "${name}" (known: ${ROLE_NAMES.join(', ')})`);
    }
  }
  return [...new Set(names)] as Role[];
}

export function readDatabase(env: Env): DatabaseConfig {
  const raw = readRaw(env, 'DATABASE_URL') ?? 'sqlite:./data/dashboard.sqlite';
  if (raw.startsWith('sqlite:')) {
    const filename = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (filename === '') throw new ConfigError('DATABASE_URL', 'names no SQLite file');
    return { dialect: 'sqlite', filename };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', connectionString: raw };
  }
  throw new ConfigError('DATABASE_URL', 'must start with sqlite: or postgres://');
}

export function readTrustProxy(env: Env): boolean | number | string[] {
  const raw = readRaw(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = readList(env, 'TRUST_PROXY');
  const addressLike = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
  for (const entry of entries) {
    if (!addressLike.test(entry)) {
      throw new ConfigError('TRUST_PROXY', `must be true, a hop count or addresses/CIDRs, got "${entry}"`);
    }
  }
  return entries;
}

/** `RATE_LIMIT_ROUTES="POST /api/pull_requests=60/60000; GET /api/apps=1200/60000"`. */
export function readRouteRateLimits(env: Env): Record<string, RouteRateLimit> {
  const raw = readRaw(env, 'RATE_LIMIT_ROUTES');
  if (raw === undefined) return {};
  const routes: Record<string, RouteRateLimit> = {};
  for (const entry of raw
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([A-Z]+) (\/\S*)=(\d+)\/(\d+)$/.exec(entry);
    if (!match) {
      throw new ConfigError('RATE_LIMIT_ROUTES', `entry "${entry}" must look like "GET /api/apps=100/60000"`);
    }
    const [, method, path, max, windowMs] = match as unknown as [string, string, string, string, string];
    routes[`${method} ${path}`] = { max: Number(max), windowMs: Math.max(1, Number(windowMs)) };
  }
  return routes;
}
