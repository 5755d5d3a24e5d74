import { type FakeCircleCi, startFakeCircleCi } from './fake-circleci.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { type FakeJira, startFakeJira } from './fake-jira.js';

/** The credentials the fakes below accept (and tests check never leak). */
export const FAKE_CREDENTIALS = {
  githubToken: 'ghp_fake_integrations_token_0123456789',
  jiraEmail: 'qa@example.com',
  jiraToken: 'jira-fake-integrations-secret-0123',
  circleToken: 'circle-fake-integrations-secret-0123',
} as const;

export interface IntegrationFakes {
  github: FakeGitHub;
  jira: FakeJira;
  circleci: FakeCircleCi;
  /** Variables pointing the service at the fakes (Jira project `QA`, CircleCI project `gh/acme/shop`). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** GitHub, Jira and CircleCI fakes together, for suites that exercise several integrations. */
export async function startIntegrationFakes(): Promise<IntegrationFakes> {
  const { githubToken, jiraEmail, jiraToken, circleToken } = FAKE_CREDENTIALS;
  const github = await startFakeGitHub({ token: githubToken });
  const jira = await startFakeJira({ email: jiraEmail, apiToken: jiraToken });
  const circleci = await startFakeCircleCi(circleToken);
  circleci.addProject('gh/acme/shop');
  return {
    github,
    jira,
    circleci,
    env: {
      GITHUB_URL: github.url,
      GITHUB_TOKEN: githubToken,
      JIRA_BASE_URL: jira.url,
      JIRA_EMAIL: jiraEmail,
      JIRA_API_TOKEN: jiraToken,
      JIRA_MANUAL_QA_PROJECT: 'QA',
      TRACKER_CACHE_MS: '0',
      CIRCLECI_BASE_URL: circleci.url,
      CIRCLECI_TOKEN: circleToken,
    },
    close: async () => {
      await Promise.all([github.close(), jira.close(), circleci.close()]);
    },
  };
}
