import { startFakeDashboard, type FakeDashboard } from '../../fakes/fake-dashboard.js';
import { reportPath, scratchFolder } from './cli-process.js';

// `dashboard upload` as a CI job runs it: a child process, against a recording dashboard over
// real HTTP, checking the exact query and headers it sends from each CI's variables. What the
// suites doing so share: the key, the report, each CI's variables and the dashboard's set-up.

export const KEY = 'wire-test-key-0123456789abcdef0123';
export const JUNIT = reportPath('jest-junit.xml');

export const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_RUN_NUMBER: '314',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_RUN_ID: '9876543210',
  GITHUB_REF_NAME: 'main',
  GITHUB_ACTOR: 'octocat',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_WORKSPACE: '/home/runner/work/shop/shop',
};

export const CIRCLE = {
  CIRCLECI: 'true',
  CIRCLE_BUILD_NUM: '12',
  CIRCLE_SHA1: 'c1rc1e5ha',
  CIRCLE_BRANCH: 'dev',
  CIRCLE_USERNAME: 'ada',
  CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/12',
  CIRCLE_WORKING_DIRECTORY: '~/project',
  CIRCLE_REPOSITORY_URL: 'git@github.com:acme/shop.git',
};

export const GITLAB = {
  GITLAB_CI: 'true',
  CI_PIPELINE_IID: '5',
  CI_COMMIT_SHA: '9171ab5ha',
  CI_COMMIT_REF_NAME: 'main',
  GITLAB_USER_LOGIN: 'grace',
  GITLAB_USER_NAME: 'Grace Hopper',
  CI_PIPELINE_URL: 'https://gitlab.com/acme/shop/-/pipelines/99',
  CI_PROJECT_DIR: '/builds/acme/shop',
  CI_PROJECT_URL: 'https://gitlab.com/acme/shop',
};

/** The recording dashboard, knowing only the app `shop`, and a folder outside any checkout. */
export async function startWire() {
  const dashboard = await startFakeDashboard({ apiKey: KEY, apps: ['shop'] });
  return { dashboard, outside: scratchFolder('cli-outside-') };
}

/** Each test starts with no request recorded and a dashboard that answers. */
export function resetWire(dashboard: FakeDashboard) {
  dashboard.requests.length = 0;
  dashboard.faults.hang = false;
}

/** The variables that point the CLI at `dashboard` with the right key. */
export const dashboardEnv = (dashboard: FakeDashboard) => ({
  DASHBOARD_URL: dashboard.baseUrl,
  DASHBOARD_API_KEY: KEY,
});
