import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { createJiraClient } from '../../integrations/jira/jira-client.js';
import { fakeJiraIssue, type FakeJira, startFakeJira } from '../../../test/fakes/fake-jira.js';
import { createIntegrations } from '../../integrations/integrations.js';
import { createIntegrationStatus } from '../status/integration-status.js';
import { createTrackerService, manualQaJql, MY_TICKETS_JQL } from './tracker.service.js';

const EMAIL = 'qa-bot@example.com';
const API_TOKEN = 'jira-secret-token-0123456789';
const PROJECT = 'SHOP';

describe('tracker API against a fake Jira', () => {
  let jira: FakeJira;
  let t: TestApp;

  beforeAll(async () => {
    jira = await startFakeJira({ email: EMAIL, apiToken: API_TOKEN });
    t = await createTestApp({
      env: {
        JIRA_BASE_URL: jira.url,
        JIRA_EMAIL: EMAIL,
        JIRA_API_TOKEN: API_TOKEN,
        JIRA_MANUAL_QA_PROJECT: PROJECT,
        TRACKER_CACHE_MS: '0',
        EXTERNAL_TIMEOUT_MS: '1000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await jira.close();
  });
  beforeEach(() => {
    jira.hang = false;
    jira.failWith = undefined;
    jira.pageSize = 50;
    jira.requests.length = 0;
  });

  it('returns the manual_qa tickets with the fixed JQL, Basic auth and the ticket mapping', async () => {
    jira.setIssues(manualQaJql(PROJECT), [
      fakeJiraIssue(1, { parent: { id: '9', key: 'QA-9', fields: { summary: 'Epic' } } }),
      fakeJiraIssue(2, { assignee: null, reporter: null, priority: null, labels: null }),
    ]);
    const res = await t.api({ method: 'GET', url: '/api/tracker/manual_qa' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.total).toBe(2);
    expect(data.issues[0]).toEqual({
      id: '10001',
      key: 'QA-1',
      url: `${jira.url}/browse/QA-1`,
      summary: 'Ticket 1',
      status: 'In Progress',
      created: '2025-01-15T09:30:00.000Z',
      updated: '2025-01-16T09:00:00.000Z',
      assignee: 'Ada Lovelace',
      reporter: 'Grace Hopper',
      labels: ['manual_qa'],
      priority: 'High',
      parent: { id: '9', key: 'QA-9', url: `${jira.url}/browse/QA-9`, summary: 'Epic' },
    });
    expect(data.issues[1]).toMatchObject({
      assignee: 'Unassigned',
      reporter: 'Unknown',
      priority: 'None',
      labels: [],
    });
    expect(data.issues[1].parent).toBeUndefined();
    const request = jira.requests[0]!;
    expect(request.path).toBe('/rest/api/3/search/jql');
    expect(request.query.get('jql')).toBe(
      'project = "SHOP" AND labels = "manual_qa" AND status NOT IN ("Done", "Ready to Release", "To Do") ORDER BY created DESC',
    );
    expect(request.query.get('fields')).toBe(
      'summary,status,created,updated,assignee,reporter,labels,priority,parent',
    );
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${EMAIL}:${API_TOKEN}`).toString('base64')}`);
  });

  it('pages through nextPageToken (three pages) for my_tickets', async () => {
    jira.pageSize = 2;
    jira.setIssues(
      MY_TICKETS_JQL,
      [1, 2, 3, 4, 5].map((n) => fakeJiraIssue(n)),
    );
    const res = await t.api({ method: 'GET', url: '/api/tracker/my_tickets' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total).toBe(5);
    expect(res.json().data.issues.map((issue: { key: string }) => issue.key)).toEqual([
      'QA-1',
      'QA-2',
      'QA-3',
      'QA-4',
      'QA-5',
    ]);
    expect(jira.requests).toHaveLength(3);
    expect(jira.requests[0]!.query.get('nextPageToken')).toBeNull();
    expect(jira.requests[1]!.query.get('nextPageToken')).toBeTruthy();
    expect(jira.requests[2]!.query.get('nextPageToken')).toBeTruthy();
    expect(jira.requests.every((request) => request.query.get('jql') === MY_TICKETS_JQL)).toBe(true);
  });

  it('serves the compatibility aliases under /api/jira', async () => {
    jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(7)]);
    const mine = await t.api({ method: 'GET', url: '/api/jira/my_tickets' });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.issues[0].key).toBe('QA-7');
    expect((await t.api({ method: 'GET', url: '/api/jira/manual_qa' })).statusCode).toBe(200);
  });

  it('answers 502 when Jira fails or never answers', async () => {
    jira.failWith = 500;
    const failing = await t.api({ method: 'GET', url: '/api/tracker/my_tickets' });
    expect(failing.statusCode).toBe(502);
    expect(failing.json().error.code).toBe('EXTERNAL_SERVICE_ERROR');
    jira.failWith = undefined;
    jira.hang = true;
    const started = Date.now();
    const hanging = await t.api({ method: 'GET', url: '/api/tracker/manual_qa' });
    expect(hanging.statusCode).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('needs the API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tracker/manual_qa' });
    expect(res.statusCode).toBe(401);
  });

  it('describes the four paths in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/tracker/manual_qa',
        '/api/tracker/my_tickets',
        '/api/jira/manual_qa',
        '/api/jira/my_tickets',
      ]),
    );
  });
});

describe('tracker without (complete) configuration', () => {
  it('answers 502 naming the missing variables (and says so once at boot)', async () => {
    const t = await createTestApp({ env: { JIRA_EMAIL: EMAIL } });
    try {
      const messages: string[] = [];
      const log = {
        info: (message: unknown) => messages.push(String(message)),
        warn: () => undefined,
        error: () => undefined,
        debug: () => undefined,
      };
      createIntegrations(t.config, createIntegrationStatus(t.database.db), log);
      expect(messages.filter((message) => message.includes('Jira'))).toEqual([
        'Jira is not configured (missing JIRA_BASE_URL, JIRA_API_TOKEN): tracker endpoints answer 502',
      ]);
      for (const url of ['/api/tracker/manual_qa', '/api/tracker/my_tickets', '/api/jira/my_tickets']) {
        const res = await t.api({ method: 'GET', url });
        expect(res.statusCode).toBe(502);
        expect(res.json().error.message).toContain('JIRA_BASE_URL');
        expect(res.json().error.message).toContain('JIRA_API_TOKEN');
      }
    } finally {
      await t.close();
    }
  });

  it('answers 502 for manual_qa when JIRA_MANUAL_QA_PROJECT is missing, my_tickets still works', async () => {
    const jira = await startFakeJira({ email: EMAIL, apiToken: API_TOKEN });
    const t = await createTestApp({
      env: { JIRA_BASE_URL: jira.url, JIRA_EMAIL: EMAIL, JIRA_API_TOKEN: API_TOKEN },
    });
    try {
      const manual = await t.api({ method: 'GET', url: '/api/tracker/manual_qa' });
      expect(manual.statusCode).toBe(502);
      expect(manual.json().error.message).toContain('JIRA_MANUAL_QA_PROJECT');
      expect((await t.api({ method: 'GET', url: '/api/tracker/my_tickets' })).statusCode).toBe(200);
    } finally {
      await t.close();
      await jira.close();
    }
  });
});

describe('tracker cache', () => {
  let jira: FakeJira;
  beforeAll(async () => {
    jira = await startFakeJira({ email: EMAIL, apiToken: API_TOKEN });
  });
  afterAll(async () => jira.close());

  const serviceWith = (cacheMs: number, now: () => number) =>
    createTrackerService({
      jira: createJiraClient(
        { baseUrl: jira.url, email: EMAIL, apiToken: API_TOKEN, manualQaProject: PROJECT },
        1000,
      ),
      missingVariables: [],
      manualQaProject: PROJECT,
      cacheMs,
      now,
    });

  it('reuses an answer for TRACKER_CACHE_MS, then asks again; failures are not cached', async () => {
    let clock = 1_000;
    const service = serviceWith(60_000, () => clock);
    jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(1)]);
    jira.requests.length = 0;
    await service.myTickets();
    await service.myTickets();
    expect(jira.requests).toHaveLength(1);
    clock += 60_001;
    jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(1), fakeJiraIssue(2)]);
    expect((await service.myTickets()).total).toBe(2);
    expect(jira.requests).toHaveLength(2);

    clock += 60_001;
    jira.failWith = 503;
    await expect(service.myTickets()).rejects.toMatchObject({ statusCode: 502 });
    jira.failWith = undefined;
    expect((await service.myTickets()).total).toBe(2);
  });

  it('turns refused credentials into a 502 that does not repeat them', async () => {
    const client = createJiraClient(
      { baseUrl: jira.url, email: EMAIL, apiToken: 'wrong', manualQaProject: PROJECT },
      1000,
    );
    const error = await client.search(MY_TICKETS_JQL).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 502, message: expect.stringContaining('401') });
    expect(String((error as Error).message)).not.toContain('wrong');
  });

  it('asks Jira every time when the cache is off (0)', async () => {
    const service = serviceWith(0, () => 0);
    jira.requests.length = 0;
    await service.myTickets();
    await service.myTickets();
    expect(jira.requests).toHaveLength(2);
  });
});
