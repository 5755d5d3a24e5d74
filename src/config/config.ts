import { randomBytes } from 'node:crypto';
import {
  ConfigError,
  type Env,
  readCron,
  readEnum,
  readInteger,
  readList,
  readRaw,
  readString,
  readTimezone,
  readUrl,
} from './env-parsers.js';

export const ROLE_NAMES = ['api', 'worker', 'scheduler'] as const;
export type Role = (typeof ROLE_NAMES)[number];

export type DatabaseConfig =
  { dialect: 'sqlite'; filename: string } | { dialect: 'postgres'; connectionString: string };

export interface RouteRateLimit {
  max: number;
  windowMs: number;
}

export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly isProduction: boolean;
  readonly host: string;
  readonly port: number;
  readonly logLevel: string;
  readonly roles: readonly Role[];
  readonly apiBaseUrl: string;
  readonly apiKey: string;
  /** True when no key was configured and one was made up for this run (never in production). */
  readonly apiKeyGenerated: boolean;
  readonly database: DatabaseConfig;
  readonly redisUrl: string | undefined;
  /**
   * REDIS_NAMESPACE: prefix of the broker's keys and channels and of the scheduler's tick locks
   * ('' = the spec's exact names), so deployments or test runs can share one Redis server.
   */
  readonly redisNamespace: string;
  readonly trustProxy: boolean | number | string[];
  readonly corsOrigins: readonly string[];
  readonly externalTimeoutMs: number;
  /** Longest time a client may take to send one request (headers and body) or sit idle on keep-alive. */
  readonly requestTimeoutMs: number;
  /** UPLOAD_MAX_BYTES: largest test-result upload, before and after gzip inflation (default 50 MiB). */
  readonly uploadMaxBytes: number;
  readonly auth: {
    readonly bruteForceMaxAttempts: number;
    readonly bruteForceWindowMs: number;
    readonly bruteForceBlockMs: number;
  };
  readonly rateLimit: {
    /** 0 turns the general limit off. */
    readonly max: number;
    readonly windowMs: number;
    readonly routes: Readonly<Record<string, RouteRateLimit>>;
  };
  /** RESPONSE_CACHE_TTL_MS: longest life of a cached read answer (0 turns the cache off). */
  readonly responseCacheTtlMs: number;
  readonly reports: {
    readonly retryBaseMs: number;
    readonly visibilityMs: number;
    readonly staleMs: number;
  };
  readonly cypress: { readonly baseUrl: string; readonly apiKey?: string; readonly branch?: string };
  readonly github: { readonly apiUrl: string; readonly token?: string };
  readonly jira: {
    readonly baseUrl?: string;
    readonly email?: string;
    readonly apiToken?: string;
    readonly manualQaProject?: string;
    readonly cacheMs: number;
  };
  readonly circleci: {
    readonly baseUrl: string;
    readonly token?: string;
    readonly projectSlug?: string;
    readonly pollMs: number;
  };
  readonly fcm: {
    readonly baseUrl: string;
    readonly serviceAccountJson?: string;
    readonly credentialsFile?: string;
    /** Push requests in flight at once per delivery (FCM_CONCURRENCY, default 10). */
    readonly concurrency: number;
  };
  readonly webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE: production may then target loopback, private and link-local hosts. */
    readonly allowPrivate: boolean;
    /** WEBHOOK_RETRY_DELAYS_MS: waits before each retry (default 1000,4000,16000). */
    readonly retryDelaysMs: readonly number[];
    /** WEBHOOK_POLL_MS: how often a process looks for deliveries due (others' and retries). */
    readonly pollMs: number;
  };
  readonly jobs: {
    readonly timezone: string;
    readonly e2eReport: string;
    readonly prManagement: string;
    readonly manualTicketsReminder: string;
    readonly deleteCompletedTodos: string;
    /** QUARANTINE_REVIEW_SCHEDULE: lifts quarantines whose ticket is done or that expired. */
    readonly quarantineReview: string;
  };
}

export const DEFAULT_SCHEDULES = {
  e2eReport: '0 9 * * *',
  prManagement: '0 9 * * 1-5',
  manualTicketsReminder: '0 9 * * 1-5',
  deleteCompletedTodos: '0 2 * * 0',
  quarantineReview: '15 * * * *',
} as const;

const GENERATED_KEY_LENGTH = 40;

/** Parses and validates every variable once; the frozen result is passed down explicitly. */
export function loadConfig(env: Env): Config {
  const nodeEnv = readEnum(env, 'NODE_ENV', ['development', 'production', 'test'], 'development');
  const isProduction = nodeEnv === 'production';
  const port = readInteger(env, 'PORT', 3000, { min: 0, max: 65535 });
  const timezone = readTimezone(env, 'CRON_TZ', 'UTC');

  const configuredKey = readRaw(env, 'API_SECURITY_KEY');
  if (configuredKey === undefined && isProduction) {
    throw new ConfigError('API_SECURITY_KEY', 'must be set when NODE_ENV=production');
  }

  const config: Config = {
    nodeEnv,
    isProduction,
    host: readString(env, 'HOST', '0.0.0.0'),
    port,
    logLevel: readEnum(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ),
    roles: readRoles(env),
    apiBaseUrl: readUrl(env, 'API_BASE_URL', `http://127.0.0.1:${port}`) as string,
    apiKey: configuredKey ?? generateKey(),
    apiKeyGenerated: configuredKey === undefined,
    database: readDatabase(env),
    redisUrl: readUrl(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    redisNamespace: readString(env, 'REDIS_NAMESPACE', ''),
    trustProxy: readTrustProxy(env),
    corsOrigins: readList(env, 'CORS_ORIGINS'),
    externalTimeoutMs: readInteger(env, 'EXTERNAL_TIMEOUT_MS', 10_000, { min: 1 }),
    requestTimeoutMs: readInteger(env, 'REQUEST_TIMEOUT_MS', 30_000, { min: 100 }),
    uploadMaxBytes: readInteger(env, 'UPLOAD_MAX_BYTES', 50 * 1024 * 1024, { min: 1024 }),
    auth: {
      bruteForceMaxAttempts: readInteger(env, 'BRUTE_FORCE_MAX_ATTEMPTS', 3, { min: 1 }),
      bruteForceWindowMs: readInteger(env, 'BRUTE_FORCE_WINDOW_MS', 900_000, { min: 1 }),
      bruteForceBlockMs: readInteger(env, 'BRUTE_FORCE_BLOCK_MS', 1_800_000, { min: 1 }),
    },
    rateLimit: {
      max: readInteger(env, 'RATE_LIMIT_MAX', 600),
      windowMs: readInteger(env, 'RATE_LIMIT_WINDOW_MS', 60_000, { min: 1 }),
      routes: readRouteRateLimits(env),
    },
    responseCacheTtlMs: readInteger(env, 'RESPONSE_CACHE_TTL_MS', 10_000, { min: 0 }),
    reports: {
      retryBaseMs: readInteger(env, 'REPORT_RETRY_BASE_MS', 5000, { min: 1 }),
      visibilityMs: readInteger(env, 'REPORT_VISIBILITY_MS', 600_000, { min: 1 }),
      staleMs: readInteger(env, 'REPORT_STALE_MS', 300_000, { min: 1 }),
    },
    cypress: {
      baseUrl: readUrl(
        env,
        'CYPRESS_BASE_URL',
        'https://cloud.cypress.io/enterprise-reporting/report',
      ) as string,
      apiKey: readRaw(env, 'CYPRESS_API_KEY'),
      branch: readRaw(env, 'CYPRESS_BRANCH'),
    },
    github: {
      apiUrl: readUrl(env, 'GITHUB_URL', 'https://api.github.com') as string,
      token: readRaw(env, 'GITHUB_TOKEN'),
    },
    jira: {
      baseUrl: readUrl(env, 'JIRA_BASE_URL', undefined),
      email: readRaw(env, 'JIRA_EMAIL'),
      apiToken: readRaw(env, 'JIRA_API_TOKEN'),
      manualQaProject: readRaw(env, 'JIRA_MANUAL_QA_PROJECT'),
      cacheMs: readInteger(env, 'TRACKER_CACHE_MS', 60_000),
    },
    circleci: {
      baseUrl: readUrl(env, 'CIRCLECI_BASE_URL', 'https://circleci.com') as string,
      token: readRaw(env, 'CIRCLECI_TOKEN'),
      projectSlug: readRaw(env, 'CIRCLECI_PROJECT_SLUG'),
      pollMs: readInteger(env, 'CIRCLECI_POLL_MS', 30_000, { min: 1 }),
    },
    fcm: {
      baseUrl: readUrl(env, 'FCM_BASE_URL', 'https://fcm.googleapis.com') as string,
      serviceAccountJson: readRaw(env, 'FCM_SERVICE_ACCOUNT_JSON'),
      credentialsFile: readRaw(env, 'GOOGLE_APPLICATION_CREDENTIALS'),
      concurrency: readInteger(env, 'FCM_CONCURRENCY', 10, { min: 1, max: 1000 }),
    },
    webhooks: {
      allowPrivate: readEnum(env, 'WEBHOOK_ALLOW_PRIVATE', ['true', 'false'], 'false') === 'true',
      retryDelaysMs: readDelays(env, 'WEBHOOK_RETRY_DELAYS_MS', [1000, 4000, 16_000]),
      pollMs: readInteger(env, 'WEBHOOK_POLL_MS', 2000, { min: 10 }),
    },
    jobs: {
      timezone,
      e2eReport: readCron(env, 'E2E_REPORT_CRON_SCHEDULE', DEFAULT_SCHEDULES.e2eReport, timezone),
      prManagement: readCron(env, 'PR_MANAGEMENT_SCHEDULE', DEFAULT_SCHEDULES.prManagement, timezone),
      manualTicketsReminder: readCron(
        env,
        'MANUAL_TICKETS_REMINDER_SCHEDULE',
        DEFAULT_SCHEDULES.manualTicketsReminder,
        timezone,
      ),
      deleteCompletedTodos: readCron(
        env,
        'DELETE_COMPLETED_TODOS_SCHEDULE',
        DEFAULT_SCHEDULES.deleteCompletedTodos,
        timezone,
      ),
      quarantineReview: readCron(
        env,
        'QUARANTINE_REVIEW_SCHEDULE',
        DEFAULT_SCHEDULES.quarantineReview,
        timezone,
      ),
    },
  };
  return deepFreeze(config);
}

/** A comma list of non-negative millisecond delays, e.g. `1000,4000,16000`. */
function readDelays(env: Env, name: string, fallback: number[]): number[] {
  const items = readList(env, name);
  if (items.length === 0) return fallback;
  return items.map((item) => {
    if (!/^\d{1,9}$/.test(item))
      throw new ConfigError(name, `must list delays in milliseconds, got "${item}"`);
    return Number(item);
  });
}

function generateKey(): string {
  return randomBytes(GENERATED_KEY_LENGTH).toString('base64url').slice(0, GENERATED_KEY_LENGTH);
}

function readRoles(env: Env): Role[] {
  const names = readList(env, 'ROLES');
  if (names.length === 0) return [...ROLE_NAMES];
  for (const name of names) {
    if (!(ROLE_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError('ROLES', `lists unknown role "${name}" (known: ${ROLE_NAMES.join(', ')})`);
    }
  }
  return [...new Set(names)] as Role[];
}

function readDatabase(env: Env): DatabaseConfig {
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

function readTrustProxy(env: Env): boolean | number | string[] {
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
function readRouteRateLimits(env: Env): Record<string, RouteRateLimit> {
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

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
