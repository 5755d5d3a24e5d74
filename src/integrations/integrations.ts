import type { Config } from '../config/config.js';
import type { Log } from '../shared/log.js';
import type { OutcomeReporters } from './call-outcomes.js';
import { type CircleCiClient, createCircleCiClient } from './circleci/circleci-client.js';
import { createCypressClient, type CypressClient } from './cypress/cypress-client.js';
import { loadServiceAccount } from './fcm/fcm-credentials.js';
import { createFcmSender, type FcmSender } from './fcm/fcm-sender.js';
import { createGitHubClient, type GitHubClient } from './github/github-client.js';
import { describeGitHubConfig } from './github/github-config.js';
import { createGitHubFeedbackClient, type GitHubFeedbackClient } from './github/github-feedback.js';
import { createJiraClient, type JiraClient } from './jira/jira-client.js';
import { readJiraSettings } from './jira/jira-config.js';
import { sendWebhook } from './webhooks/webhook-sender.js';

/** Jira as the tracker and the quarantine review see it. */
export interface JiraIntegration {
  /** Undefined while `missing` names a required variable (calls then answer 502 saying which). */
  client: JiraClient | undefined;
  missing: readonly string[];
  /** `JIRA_MANUAL_QA_PROJECT`, needed by the manual_qa query only. */
  manualQaProject: string | undefined;
}

/** Every external service the process talks to, each client built once from `Config`. */
export interface Integrations {
  /** Pull requests and suspect commits; anonymous (public repositories only) without a token. */
  github: GitHubClient;
  /** Commit statuses and pull-request comments of run verdicts (with retries; needs GITHUB_TOKEN). */
  githubFeedback: GitHubFeedbackClient;
  jira: JiraIntegration;
  /** Manual E2E runs; undefined without `CIRCLECI_TOKEN` (triggering then answers 502). */
  circleci: CircleCiClient | undefined;
  /** The test-results service the report worker reads (without a key, requests carry no token). */
  cypress: CypressClient;
  /** Push delivery; undefined without FCM credentials (notifications are still stored). */
  fcm: FcmSender | undefined;
  /** One POST to a webhook receiver (Slack, Teams or generic). */
  sendWebhook: typeof sendWebhook;
}

/**
 * Builds the clients of GitHub, Jira, CircleCI, the test-results service and FCM once per process,
 * each reporting its calls to `status` (the status page), and says at boot, once, which of them
 * are not configured. Unusable FCM credentials throw a ConfigError naming the variable.
 */
export function createIntegrations(config: Config, status: OutcomeReporters, log: Log): Integrations {
  const timeoutMs = config.externalTimeoutMs;
  const github = describeGitHubConfig(config);
  if (github.warning) log.warn(github.warning);
  return {
    github: createGitHubClient(config, log, status.outcomes('github', [config.github.token])),
    githubFeedback: createGitHubFeedbackClient({
      apiUrl: config.github.apiUrl,
      token: config.github.token,
      timeoutMs,
      retryDelaysMs: config.verdict.feedbackRetryDelaysMs,
      outcomes: status.outcomes('github', [config.github.token]),
    }),
    jira: jiraFromConfig(config, status, log),
    circleci: circleCiFromConfig(config, status, log),
    cypress: createCypressClient({
      baseUrl: config.cypress.baseUrl,
      apiKey: config.cypress.apiKey,
      branch: config.cypress.branch,
      timeoutMs,
      outcomes: status.outcomes('cypress', [config.cypress.apiKey]),
    }),
    fcm: fcmFromConfig(config, log, status),
    sendWebhook,
  };
}

function jiraFromConfig(config: Config, status: OutcomeReporters, log: Log): JiraIntegration {
  const { settings, missing } = readJiraSettings(config);
  if (!settings) {
    log.info(`Jira is not configured (missing ${missing.join(', ')}): tracker endpoints answer 502`);
    return { client: undefined, missing, manualQaProject: undefined };
  }
  return {
    client: createJiraClient(
      settings,
      config.externalTimeoutMs,
      status.outcomes('jira', [settings.apiToken]),
    ),
    missing,
    manualQaProject: settings.manualQaProject,
  };
}

function circleCiFromConfig(config: Config, status: OutcomeReporters, log: Log): CircleCiClient | undefined {
  const { token, baseUrl } = config.circleci;
  if (!token) {
    log.info('CIRCLECI_TOKEN is not set: triggering a manual E2E run answers 502');
    return undefined;
  }
  return createCircleCiClient({
    baseUrl,
    token,
    timeoutMs: config.externalTimeoutMs,
    outcomes: status.outcomes('circleci', [token]),
  });
}

/**
 * The FCM sender, or undefined when no credentials are set (push off, said once at boot).
 * Unusable credentials throw a ConfigError naming the variable.
 */
export function fcmFromConfig(
  config: Pick<Config, 'fcm' | 'externalTimeoutMs'>,
  log: Log,
  status?: OutcomeReporters,
): FcmSender | undefined {
  const account = loadServiceAccount(config.fcm);
  if (!account) {
    log.info(
      'Push delivery is off: set FCM_SERVICE_ACCOUNT_JSON or GOOGLE_APPLICATION_CREDENTIALS to enable it',
    );
    return undefined;
  }
  log.info({ projectId: account.projectId }, 'Push delivery through FCM is on');
  return createFcmSender({
    account,
    baseUrl: config.fcm.baseUrl,
    concurrency: config.fcm.concurrency,
    timeoutMs: config.externalTimeoutMs,
    log,
    ...(status ? { outcomes: status.outcomes('fcm') } : {}),
  });
}
