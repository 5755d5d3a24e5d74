import type { Config } from './config.js';
import { ConfigError, type Env, readEnum, readInteger, readList, readRaw, readUrl } from './env-parsers.js';

/** The variables of the services this one calls: test results, source control, tracker, CI, push, webhooks. */
export type IntegrationSettings = Pick<
  Config,
  'cypress' | 'github' | 'jira' | 'circleci' | 'fcm' | 'webhooks'
>;

export function readIntegrationSettings(env: Env): IntegrationSettings {
  return {
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
  };
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
