import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './env-parsers.js';

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
    });
    expect(config.rateLimit.max).toBe(600);
    expect(config.rateLimit.windowMs).toBe(60_000);
    expect(config.reports).toEqual({ retryBaseMs: 5000, visibilityMs: 600_000, staleMs: 300_000 });
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
});
