import { randomBytes } from 'node:crypto';
import {
  ConfigError,
  type Env,
  readEnum,
  readInteger,
  readList,
  readRaw,
  readString,
  readTimezone,
  readUrl,
} from './env-parsers.js';
import { readIntegrationSettings } from './integration-settings.js';
import {
  type DatabaseConfig,
  readDatabase,
  readRoles,
  readRouteRateLimits,
  readTrustProxy,
  type Role,
  type RouteRateLimit,
} from './process-settings.js';
import { readSchedules } from './schedules.js';

// The parts live beside this file, grouped by what they parse; their names stay exported here.
export { type DatabaseConfig, ROLE_NAMES, type Role, type RouteRateLimit } from './process-settings.js';
export { DEFAULT_SCHEDULES } from './schedules.js';

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
    /**
     * API_KEY_CACHE_MS: how long a process trusts what it looked up about a key made through the
     * API before asking the database again (revocations arrive sooner through the broker).
     */
    readonly keyCacheMs: number;
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
      keyCacheMs: readInteger(env, 'API_KEY_CACHE_MS', 1000, { min: 0, max: 60_000 }),
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
    ...readIntegrationSettings(env),
    jobs: readSchedules(env, timezone),
  };
  return deepFreeze(config);
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
