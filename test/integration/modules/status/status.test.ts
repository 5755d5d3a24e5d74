import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeFcm, startFakeFcm } from '../../../fakes/fake-fcm-server.js';
import { fakePullRequest } from '../../../fakes/fake-github.js';
import { fakeJiraIssue } from '../../../fakes/fake-jira.js';
import {
  FAKE_CREDENTIALS,
  type IntegrationFakes,
  startIntegrationFakes,
} from '../../../fakes/integration-fakes.js';
import {
  CYPRESS_KEY,
  eventually,
  type ReportHarness,
  specRow,
  startReportHarness,
} from '../../../support/report-harness.js';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';
import { buildTestApp } from '../../../support/test-container.js';
import { createInProcessBroker } from '../../../../src/broker/in-process-broker.js';
import { VERSION } from '../../../../src/shared/version.js';
import { manualQaJql } from '../../../../src/modules/tracker/tracker.service.js';

type Integration = {
  configured: boolean;
  missing: string[];
  lastSuccessAt: string | null;
  lastError: string | null;
};
type StatusBody = {
  success: true;
  data: {
    version: string;
    roles: string[];
    database: { dialect: string };
    broker: { kind: string; status: string };
    integrations: Record<'cypress' | 'github' | 'jira' | 'circleci' | 'fcm', Integration>;
    jobs: { name: string; schedule: string; nextRun: string | null; lastRun: string | null }[];
  };
};

describe.each(DIALECTS)('GET /api/status on a bare configuration (%s)', (dialect) => {
  const t = suiteTestApp({ dialect });

  it('needs the key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('names this process, its dependencies and every variable still to set', async () => {
    const res = await t.api({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    const { success, data } = res.json<StatusBody>();
    expect(success).toBe(true);
    expect(data).toMatchObject({
      version: VERSION,
      roles: ['api', 'worker', 'scheduler'],
      database: { dialect },
      broker: { kind: 'in-process', status: 'ok' },
    });
    const unset = (missing: string[]) => ({
      configured: false,
      missing,
      lastSuccessAt: null,
      lastError: null,
    });
    expect(data.integrations).toEqual({
      cypress: unset(['CYPRESS_API_KEY']),
      github: unset(['GITHUB_TOKEN']),
      jira: unset(['JIRA_BASE_URL', 'JIRA_EMAIL', 'JIRA_API_TOKEN', 'JIRA_MANUAL_QA_PROJECT']),
      circleci: unset(['CIRCLECI_TOKEN']),
      fcm: unset(['FCM_SERVICE_ACCOUNT_JSON']),
    });
  });

  it('lists the same job objects as GET /api/jobs', async () => {
    const [status, jobs] = await Promise.all([
      t.api({ method: 'GET', url: '/api/status' }),
      t.api({ method: 'GET', url: '/api/jobs' }),
    ]);
    const listed = status.json<StatusBody>().data.jobs;
    expect(listed.map((job) => job.name)).toEqual([
      'e2e-report',
      'pr-management',
      'manual-tickets-reminder',
      'delete-completed-todos',
      'quarantine-review',
      'results-retention',
    ]);
    expect(listed).toEqual(jobs.json().data);
  });

  it('reports a broker that does not answer as down', async () => {
    const broker = createInProcessBroker();
    const app = await buildTestApp(t.config, {
      database: t.database,
      broker: { ...broker, ping: () => Promise.reject(new Error('connection refused')) },
    });
    app.addHook('onClose', async () => broker.close());
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/status',
        headers: { 'x-api-key': t.config.apiKey },
      });
      expect(res.json<StatusBody>().data.broker).toEqual({ kind: 'in-process', status: 'down' });
    } finally {
      await app.close();
    }
  });
});

describe.each(DIALECTS)('GET /api/status with every integration pointed at fakes (%s)', (dialect) => {
  let fakes: IntegrationFakes;
  let fcm: FakeFcm;
  let h: ReportHarness;

  beforeAll(async () => {
    fakes = await startIntegrationFakes();
    fcm = await startFakeFcm();
    h = await startReportHarness({
      dialect,
      env: { ...fakes.env, FCM_SERVICE_ACCOUNT_JSON: fcm.serviceAccountJson, FCM_BASE_URL: fcm.baseUrl },
    });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([fakes.close(), fcm.close()]);
  });

  /** Tracks `acme/shop#number`, reading its title from GitHub; resolves with the HTTP status. */
  const track = async (number: number) => {
    fakes.github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', number));
    const url = `https://github.com/acme/shop/pull/${number}`;
    return (await h.api({ method: 'POST', url: '/api/pull_requests', payload: { url } })).statusCode;
  };
  const status = async () => (await h.api({ method: 'GET', url: '/api/status' })).json<StatusBody>().data;
  const until = (check: (data: StatusBody['data']) => boolean) => eventually(status, check);

  it('shows every integration configured, and no call made yet', async () => {
    for (const integration of Object.values((await status()).integrations)) {
      expect(integration).toEqual({ configured: true, missing: [], lastSuccessAt: null, lastError: null });
    }
  });

  it('records the last success of each integration after a real call', async () => {
    const before = new Date().toISOString();
    expect(await track(5)).toBe(201);
    fakes.jira.setIssues(manualQaJql('QA'), [fakeJiraIssue(1)]);
    expect((await h.api({ method: 'GET', url: '/api/tracker/manual_qa' })).statusCode).toBe(200);
    const appId = await h.createApp('shop');
    await h.api({
      method: 'PUT',
      url: `/api/apps/${appId}`,
      payload: {
        pipelineUrl: 'https://app.circleci.com/pipelines/gh/acme/shop',
        e2eTriggerConfiguration: { enabled: true },
      },
    });
    expect(
      (await h.api({ method: 'POST', url: '/api/e2e_manual_runs', payload: { appId } })).statusCode,
    ).toBe(201);
    await h.api({ method: 'POST', url: '/api/push/register', payload: { token: 'device-status-1' } });
    await h.api({
      method: 'POST',
      url: '/api/notifications',
      payload: { title: 'T', message: 'M', type: 'info' },
    });
    h.fake.rows = [specRow('shop', 1)];
    expect((await h.waitForReport('2025-03-10')).statusCode).toBe(200);

    const data = await until((d) => Object.values(d.integrations).every((i) => i.lastSuccessAt !== null));
    for (const [name, integration] of Object.entries(data.integrations)) {
      expect(integration.lastSuccessAt! >= before, name).toBe(true);
      expect(integration.lastError, name).toBeNull();
    }
    expect(fcm.delivered.length).toBeGreaterThan(0);
  });

  it('shows a failure as lastError without any secret, and a later success clears it', async () => {
    fakes.github.failWith = 502;
    expect(await track(6)).toBe(502);
    const failed = await until((d) => d.integrations.github.lastError !== null);
    expect(failed.integrations.github.lastError).toBe('GitHub answered 502');
    expect(failed.integrations.github.lastSuccessAt).not.toBeNull();

    fakes.jira.failWith = 401;
    await h.api({ method: 'GET', url: '/api/tracker/my_tickets' });
    const jiraFailed = await until((d) => d.integrations.jira.lastError !== null);
    expect(jiraFailed.integrations.jira.lastError).toMatch(/^Jira answered 401/);

    const appId = await h.createApp('cart');
    const trigger = { enabled: true };
    const pipelineUrl = 'https://app.circleci.com/pipelines/gh/acme/shop';
    await h.api({
      method: 'PUT',
      url: `/api/apps/${appId}`,
      payload: { pipelineUrl, e2eTriggerConfiguration: trigger },
    });
    fakes.circleci.failWith = 500;
    expect(
      (await h.api({ method: 'POST', url: '/api/e2e_manual_runs', payload: { appId } })).statusCode,
    ).toBe(502);
    fakes.circleci.failWith = undefined;

    await h.api({ method: 'POST', url: '/api/push/register', payload: { token: 'device-status-2' } });
    const denied = { code: 403, status: 'PERMISSION_DENIED', message: 'SenderId mismatch' };
    fcm.failNext({ status: 403, body: { error: denied } }, { status: 403, body: { error: denied } });
    await h.api({
      method: 'POST',
      url: '/api/notifications',
      payload: { title: 'T', message: 'M', type: 'info' },
    });

    const all = await until(
      (d) => d.integrations.circleci.lastError !== null && d.integrations.fcm.lastError !== null,
    );
    expect(all.integrations.circleci.lastError).toMatch(/^CircleCI answered 500/);
    expect(all.integrations.fcm.lastError).toBe('FCM answered 403 PERMISSION_DENIED: SenderId mismatch');
    const text = JSON.stringify(all);
    const { githubToken, jiraToken, circleToken } = FAKE_CREDENTIALS;
    for (const secret of [githubToken, jiraToken, circleToken, CYPRESS_KEY, 'private_key']) {
      expect(text).not.toContain(secret);
    }

    fakes.github.failWith = undefined;
    expect(await track(6)).toBe(201);
    await until((d) => d.integrations.github.lastError === null);
    fakes.jira.failWith = undefined;
  });
});
