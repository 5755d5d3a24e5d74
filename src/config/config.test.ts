import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { type Config, type DatabaseConfig, loadConfig, type Role } from './config.js';
import { ConfigError } from './config-error.js';

const load = (env: Record<string, string>) => loadConfig({ API_SECURITY_KEY: 'k'.repeat(40), ...env });

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = load({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.roles).toEqual(['api', 'worker', 'scheduler']);
    expect(config.database).toEqual({ dialect: 'sqlite', filename: './data/dashboard.sqlite' });
    expect(config.redisUrl).toBeUndefined();
    expect(config.auth).toEqual({
      bruteForceMaxAttempts: 3,
      bruteForceWindowMs: 900_000,
      bruteForceBlockMs: 1_800_000,
      keyCacheMs: 1000,
    });
    expect(config.rateLimit.max).toBe(600);
    expect(config.rateLimit.windowMs).toBe(60_000);
    expect(config.reports).toEqual({
      retryBaseMs: 5000,
      visibilityMs: 600_000,
      staleMs: 300_000,
      refreshDelayMs: 3500,
    });
    expect(config.externalTimeoutMs).toBe(10_000);
    expect(config.apiBaseUrl).toBe('http://127.0.0.1:3000');
    expect(config.github.apiUrl).toBe('https://api.github.com');
    expect(config.circleci.pollMs).toBe(30_000);
    expect(config.jira.cacheMs).toBe(60_000);
    expect(config.jobs).toEqual({
      timezone: 'UTC',
      e2eReport: '0 9 * * *',
      prManagement: '0 9 * * 1-5',
      manualTicketsReminder: '0 9 * * 1-5',
      deleteCompletedTodos: '0 2 * * 0',
      quarantineReview: '15 * * * *',
      resultsRetention: '30 3 * * *',
      resultsRetentionDays: 90,
    });
    expect(config.trustProxy).toBe(false);
  });

  it('is frozen all the way down', () => {
    const config = load({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.auth)).toBe(true);
    expect(Object.isFrozen(config.roles)).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['BRUTE_FORCE_MAX_ATTEMPTS', '0'],
    ['RATE_LIMIT_MAX', '-1'],
    ['API_KEY_CACHE_MS', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://localhost'],
    ['ROLES', 'api,cook'],
    ['NODE_ENV', 'staging'],
    ['E2E_REPORT_CRON_SCHEDULE', 'every morning'],
    ['PR_MANAGEMENT_SCHEDULE', '61 * * * *'],
    ['CRON_TZ', 'Mars/Olympus'],
    ['TRUST_PROXY', 'yes please'],
    ['GITHUB_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_ROUTES', 'GET /api/apps=lots'],
    ['REPORT_REFRESH_DELAY_MS', '-1'],
    ['REPORT_REFRESH_DELAY_MS', '3600001'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    const error = failure({ API_SECURITY_KEY: 'k'.repeat(40), [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message).toContain(name);
  });

  it('refuses to start in production without a key', () => {
    expect(failure({ NODE_ENV: 'production' }).variable).toBe('API_SECURITY_KEY');
  });

  it('generates a 40-character key outside production, different each run', () => {
    const first = loadConfig({});
    const second = loadConfig({});
    expect(first.apiKeyGenerated).toBe(true);
    expect(first.apiKey).toHaveLength(40);
    expect(first.apiKey).not.toBe(second.apiKey);
    expect(load({}).apiKeyGenerated).toBe(false);
  });

  it('parses database, roles, trust proxy and per-route limits', () => {
    const config = load({
      DATABASE_URL: 'postgres://u@db:5432/dash',
      ROLES: 'worker, api',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      RATE_LIMIT_ROUTES: 'POST /api/pull_requests=5/1000; GET /api/apps=100/60000',
      CRON_TZ: 'Europe/Paris',
      E2E_REPORT_CRON_SCHEDULE: '*/5 * * * *',
    });
    expect(config.database).toEqual({ dialect: 'postgres', connectionString: 'postgres://u@db:5432/dash' });
    expect(config.roles).toEqual(['worker', 'api']);
    expect(config.trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(config.rateLimit.routes['POST /api/pull_requests']).toEqual({ max: 5, windowMs: 1000 });
    expect(config.jobs.timezone).toBe('Europe/Paris');
    expect(config.jobs.e2eReport).toBe('*/5 * * * *');
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ DATABASE_URL: 'sqlite::memory:' }).database).toEqual({
      dialect: 'sqlite',
      filename: ':memory:',
    });
  });

  it('accepts the default CRON_TZ (UTC) without loading time-zone data, and checks any other zone', () => {
    // Constructing a formatter with a zone maps ICU's zone data into the process for good.
    const formatter = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      expect(load({}).jobs.timezone).toBe('UTC');
      expect(load({ CRON_TZ: 'UTC' }).jobs.timezone).toBe('UTC');
      expect(formatter).not.toHaveBeenCalled();
      expect(load({ CRON_TZ: 'Europe/Paris' }).jobs.timezone).toBe('Europe/Paris');
      expect(formatter).toHaveBeenCalled();
    } finally {
      formatter.mockRestore();
    }
  });

  it('reports every bad variable at once, one line each', () => {
    const error = failure({
      NODE_ENV: 'production',
      PORT: 'eighty',
      ROLES: 'api,cook',
      WEBHOOK_RETRY_DELAYS_MS: '1000,soon',
    });
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'PORT',
      'ROLES',
      'API_SECURITY_KEY',
      'WEBHOOK_RETRY_DELAYS_MS',
    ]);
    expect(error.variable).toBe('PORT');
    expect(error.message.split('\n')).toEqual([
      'Invalid configuration:',
      '  PORT must be an integer, got "eighty"',
      '  ROLES lists unknown role "cook" (known: api, worker, scheduler)',
      '  API_SECURITY_KEY must be set when NODE_ENV=production',
      '  WEBHOOK_RETRY_DELAYS_MS must list delays in milliseconds, got "soon"',
    ]);
  });

  it('keeps the one-line message for a single bad variable', () => {
    expect(failure({ API_SECURITY_KEY: 'k'.repeat(40), PORT: '70000' }).message).toBe(
      'Invalid configuration: PORT must be between 0 and 65535, got 70000',
    );
  });

  it('treats blank and padded values as unset and trimmed', () => {
    const config = load({ PORT: '  ', HOST: ' 127.0.0.1 ', ROLES: ' , ', TRUST_PROXY: 'false' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.roles).toEqual(['api', 'worker', 'scheduler']);
    expect(config.trustProxy).toBe(false);
    expect(loadConfig({ API_SECURITY_KEY: '   ' }).apiKeyGenerated).toBe(true);
  });

  it('derives the API base URL from the port and trims trailing slashes from URLs', () => {
    expect(load({ PORT: '8080' }).apiBaseUrl).toBe('http://127.0.0.1:8080');
    const config = load({
      API_BASE_URL: 'https://dash.example.com/',
      GITHUB_URL: 'https://ghe.example.com/api/v3//',
      REDIS_URL: 'rediss://cache:6380',
    });
    expect(config.apiBaseUrl).toBe('https://dash.example.com');
    expect(config.github.apiUrl).toBe('https://ghe.example.com/api/v3');
    expect(config.redisUrl).toBe('rediss://cache:6380');
  });

  it('reads the integrations, webhooks and the remaining defaults', () => {
    const defaults = load({});
    expect(defaults.webhooks).toEqual({
      allowPrivate: false,
      retryDelaysMs: [1000, 4000, 16_000],
      pollMs: 2000,
    });
    expect(defaults.fcm).toEqual({ baseUrl: 'https://fcm.googleapis.com', concurrency: 10 });
    expect(defaults.corsOrigins).toEqual([]);
    expect(defaults.rateLimit.routes).toEqual({});
    expect(defaults.redisNamespace).toBe('');
    expect(defaults.requestTimeoutMs).toBe(30_000);
    expect(defaults.uploadMaxBytes).toBe(50 * 1024 * 1024);
    expect(defaults.responseCacheTtlMs).toBe(10_000);
    const config = load({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0, 250',
      FCM_SERVICE_ACCOUNT_JSON: '{"project_id":"p"}',
      GOOGLE_APPLICATION_CREDENTIALS: '/run/key.json',
      JIRA_BASE_URL: 'https://jira.example.com/',
      JIRA_EMAIL: 'qa@example.com',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      DATABASE_URL: 'sqlite:///var/lib/dash.sqlite',
    });
    expect(config.webhooks.allowPrivate).toBe(true);
    expect(config.webhooks.retryDelaysMs).toEqual([0, 250]);
    expect(config.fcm.serviceAccountJson).toBe('{"project_id":"p"}');
    expect(config.fcm.credentialsFile).toBe('/run/key.json');
    expect(config.jira).toEqual({
      baseUrl: 'https://jira.example.com',
      email: 'qa@example.com',
      cacheMs: 60_000,
    });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.database).toEqual({ dialect: 'sqlite', filename: '/var/lib/dash.sqlite' });
    expect(load({ DATABASE_URL: 'postgresql://u@db/dash' }).database.dialect).toBe('postgres');
    expect(failure({ DATABASE_URL: 'sqlite:' }).message).toContain('DATABASE_URL names no SQLite file');
    expect(failure({ WEBHOOK_ALLOW_PRIVATE: 'yes' }).variable).toBe('WEBHOOK_ALLOW_PRIVATE');
  });

  it('keeps the shape the rest of the code reads', () => {
    expectTypeOf<Config['port']>().toEqualTypeOf<number>();
    expectTypeOf<Config['roles']>().toEqualTypeOf<readonly Role[]>();
    expectTypeOf<Config['database']>().toMatchTypeOf<DatabaseConfig>();
    expectTypeOf<Config['trustProxy']>().toEqualTypeOf<boolean | number | string[]>();
    expectTypeOf<Config['redisUrl']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Config['apiKey']>().toEqualTypeOf<string>();
    expectTypeOf<Config['apiBaseUrl']>().toEqualTypeOf<string>();
    expectTypeOf<Config['jira']['baseUrl']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Config['webhooks']['retryDelaysMs']>().toEqualTypeOf<readonly number[]>();
    expectTypeOf<Config['rateLimit']['routes'][string]['max']>().toEqualTypeOf<number>();
    expectTypeOf<Config['jobs']['quarantineReview']>().toEqualTypeOf<string>();
    expectTypeOf<Config['isProduction']>().toEqualTypeOf<boolean>();
  });
});
