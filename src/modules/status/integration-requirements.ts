import type { Config } from '../../config/config.js';
import { circleCiConfigured } from '../../integrations/circleci/circleci-config.js';
import { readJiraSettings } from '../../integrations/jira/jira-config.js';
import type { IntegrationName } from '../../integrations/call-outcomes.js';

/**
 * The variables each integration still needs for its full function (see docs/contract-notes.md,
 * "Status page"). GitHub works anonymously but only for public repositories, so its token counts
 * as missing; for push, either credential variable is enough and the first one is named.
 */
export function missingVariables(config: Config): Record<IntegrationName, string[]> {
  return {
    cypress: config.cypress.apiKey ? [] : ['CYPRESS_API_KEY'],
    github: config.github.token ? [] : ['GITHUB_TOKEN'],
    jira: [
      ...readJiraSettings(config).missing,
      ...(config.jira.manualQaProject ? [] : ['JIRA_MANUAL_QA_PROJECT']),
    ],
    circleci: circleCiConfigured(config) ? [] : ['CIRCLECI_TOKEN'],
    fcm: config.fcm.serviceAccountJson || config.fcm.credentialsFile ? [] : ['FCM_SERVICE_ACCOUNT_JSON'],
  };
}
