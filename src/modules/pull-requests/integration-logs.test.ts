import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/test-database.js';
import { TEST_KEY, testConfig } from '../../../test/support/test-app.js';
import { buildApiRole } from '../../roles/api.js';
import { createLogger } from '../../container.js';
import { createTestContainer } from '../../../test/support/test-container.js';
import type { DatabaseHandle } from '../../db/database.js';
import { type FakeCircleCi, startFakeCircleCi } from '../../../test/fakes/fake-circleci.js';
import { fakePullRequest, type FakeGitHub, startFakeGitHub } from '../../../test/fakes/fake-github.js';
import { fakeJiraIssue, type FakeJira, startFakeJira } from '../../../test/fakes/fake-jira.js';
import { MY_TICKETS_JQL } from '../tracker/tracker.service.js';

/**
 * Covers all three live integrations (GitHub, Jira, CircleCI): whatever happens — success,
 * refused credentials, failures, time-outs, background polls — no credential reaches a log line.
 */
const GITHUB_TOKEN = 'ghp_SECRETgithubTOKEN0123456789abcdef';
const JIRA_EMAIL = 'robot@example.com';
const JIRA_TOKEN = 'ATATT3xSECRETjiraTOKEN0123456789';
const CIRCLE_TOKEN = 'CCIPAT_SECRETcircleTOKEN0123456789';

describe('integration logs', () => {
  let github: FakeGitHub;
  let jira: FakeJira;
  let circleci: FakeCircleCi;
  let database: DatabaseHandle;
  const lines: string[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub({ token: GITHUB_TOKEN });
    jira = await startFakeJira({ email: JIRA_EMAIL, apiToken: JIRA_TOKEN });
    circleci = await startFakeCircleCi(CIRCLE_TOKEN);
    database = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    await Promise.all([github.close(), jira.close(), circleci.close()]);
    await database.close();
  });

  async function appWith(env: Record<string, string>) {
    const config = testConfig({
      LOG_LEVEL: 'trace',
      EXTERNAL_TIMEOUT_MS: '1000',
      TRACKER_CACHE_MS: '0',
      ...env,
    });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const container = createTestContainer(config, { database, log: createLogger(config, stream) });
    const app = await buildApiRole(container);
    app.addHook('onClose', async () => container.close());
    await app.ready();
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: { 'x-api-key': TEST_KEY }, ...(payload ? { payload } : {}) });
    return { app, config, api, container };
  }

  it('never writes a token or Basic credential, on success or failure', async () => {
    const good = await appWith({
      GITHUB_URL: github.url,
      GITHUB_TOKEN,
      JIRA_BASE_URL: jira.url,
      JIRA_EMAIL,
      JIRA_API_TOKEN: JIRA_TOKEN,
      JIRA_MANUAL_QA_PROJECT: 'SHOP',
      CIRCLECI_BASE_URL: circleci.url,
      CIRCLECI_TOKEN: CIRCLE_TOKEN,
    });
    try {
      github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 1));
      const pr = await good.api('POST', '/api/pull_requests', { url: 'https://github.com/acme/shop/pull/1' });
      expect(pr.statusCode).toBe(201);
      expect((await good.api('GET', `/api/pull_requests/${pr.json().data.id}`)).statusCode).toBe(200);
      expect((await good.api('POST', '/api/pull_requests/sync')).statusCode).toBe(200);
      github.failWith = 500;
      expect((await good.api('GET', `/api/pull_requests/${pr.json().data.id}`)).statusCode).toBe(502);
      github.failWith = undefined;
      github.hang = true;
      expect(
        (await good.api('POST', '/api/pull_requests', { url: 'https://github.com/acme/shop/pull/2' }))
          .statusCode,
      ).toBe(502);
      github.hang = false;

      jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(1)]);
      expect((await good.api('GET', '/api/tracker/my_tickets')).statusCode).toBe(200);
      jira.failWith = 500;
      expect((await good.api('GET', '/api/tracker/manual_qa')).statusCode).toBe(502);
      jira.failWith = undefined;

      circleci.addProject('github/acme/shop');
      const app = await good.api('POST', '/api/apps', {
        name: 'Shop',
        code: 'shop-logs',
        pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/shop',
        e2eTriggerConfiguration: { enabled: true, branch: 'main' },
      });
      const run = await good.api('POST', '/api/e2e_manual_runs', { appId: app.json().data.id });
      expect(run.statusCode, run.body).toBe(201);
      circleci.failWith = 500;
      await good.container.manualRuns.poller.pollOnce();
      circleci.failWith = undefined;
    } finally {
      await good.app.close();
    }

    const refused = await appWith({
      GITHUB_URL: github.url,
      GITHUB_TOKEN: `${GITHUB_TOKEN}-wrong`,
      JIRA_BASE_URL: jira.url,
      JIRA_EMAIL,
      JIRA_API_TOKEN: `${JIRA_TOKEN}-wrong`,
      CIRCLECI_BASE_URL: circleci.url,
      CIRCLECI_TOKEN: `${CIRCLE_TOKEN}-wrong`,
    });
    try {
      expect(
        (await refused.api('POST', '/api/pull_requests', { url: 'https://github.com/acme/shop/pull/3' }))
          .statusCode,
      ).toBe(502);
      expect((await refused.api('GET', '/api/tracker/my_tickets')).statusCode).toBe(502);
      const app = await refused.api('POST', '/api/apps', {
        name: 'Shop 2',
        code: 'shop-logs-2',
        pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/shop',
        e2eTriggerConfiguration: { enabled: true },
      });
      expect(
        (await refused.api('POST', '/api/e2e_manual_runs', { appId: app.json().data.id })).statusCode,
      ).toBe(502);
      await refused.container.manualRuns.poller.pollOnce();
    } finally {
      await refused.app.close();
    }

    expect(lines.length).toBeGreaterThan(20);
    expect(lines.some((line) => line.includes('"level":50'))).toBe(true);
    expect(lines.some((line) => line.includes('manual run status poll failed'))).toBe(true);
    const secrets = [
      GITHUB_TOKEN,
      JIRA_TOKEN,
      CIRCLE_TOKEN,
      TEST_KEY,
      Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString('base64'),
      Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}-wrong`).toString('base64'),
    ];
    for (const secret of secrets) {
      // The "-wrong" variants contain the real tokens as prefixes, so this covers them as well.
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
