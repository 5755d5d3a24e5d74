import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FakeFaults, listenOnLoopback, noFaults, sendJson } from './fake-http.js';
import type { JiraIssue } from '../../src/integrations/jira/jira-client.js';

/**
 * A Jira Cloud server for tests, on 127.0.0.1: `GET /rest/api/3/search/jql` with Basic
 * authentication, `fields`, `maxResults` capped by a server page size, opaque `nextPageToken`
 * paging with `isLast`, and Jira's `{errorMessages, errors}` error bodies; `GET
 * /rest/api/3/issue/{key}` for single issues, whose status a test moves between categories.
 */
export interface FakeJira extends FakeFaults {
  readonly url: string;
  readonly requests: {
    path: string;
    query: URLSearchParams;
    authorization: string | undefined;
    status: number;
  }[];
  /** Issues returned for one exact JQL string (others return none). */
  setIssues(jql: string, issues: JiraIssue[]): void;
  /**
   * Creates or moves a single issue (served by `GET /rest/api/3/issue/{key}`): its status and
   * that status's category (`new`, `indeterminate` or `done`, as Jira's `statusCategory.key`).
   */
  setIssueStatus(key: string, status: { name: string; category: 'new' | 'indeterminate' | 'done' }): void;
  /** Forgets a single issue: it then answers 404 like a deleted one. */
  deleteIssue(key: string): void;
  /** Largest page the server returns, whatever `maxResults` asks. */
  pageSize: number;
  close(): Promise<void>;
}

/** A Jira issue as the search API returns it; `fields` overrides merge into the defaults. */
export function fakeJiraIssue(n: number, fields: Partial<JiraIssue['fields']> = {}): JiraIssue {
  return {
    id: String(10_000 + n),
    key: `QA-${n}`,
    fields: {
      summary: `Ticket ${n}`,
      status: { name: 'In Progress' },
      created: '2025-01-15T10:30:00.000+0100',
      updated: '2025-01-16T09:00:00.000+0000',
      assignee: { displayName: 'Ada Lovelace' },
      reporter: { displayName: 'Grace Hopper' },
      labels: ['manual_qa'],
      priority: { name: 'High' },
      ...fields,
    },
  };
}

export async function startFakeJira(credentials: { email: string; apiToken: string }): Promise<FakeJira> {
  const expected = `Basic ${Buffer.from(`${credentials.email}:${credentials.apiToken}`).toString('base64')}`;
  const results = new Map<string, JiraIssue[]>();
  const singleIssues = new Map<string, JiraIssue>();
  const requests: FakeJira['requests'] = [];
  const state = { pageSize: 50, ...noFaults() };

  const handle = (req: IncomingMessage, res: ServerResponse, url: URL): number | undefined => {
    if (state.hang) return undefined;
    if (req.headers.authorization !== expected) {
      // Jira Cloud answers a bad Basic credential with 401 and a plain-text-like JSON body.
      sendJson(res, 401, {
        errorMessages: ['You are not authenticated. Authentication required to perform this operation.'],
        errors: {},
      });
      return 401;
    }
    const issueKey = /^\/rest\/api\/3\/issue\/([^/]+)$/.exec(url.pathname)?.[1];
    if (req.method === 'GET' && issueKey !== undefined)
      return answerIssue(res, url, decodeURIComponent(issueKey));
    if (req.method !== 'GET' || url.pathname !== '/rest/api/3/search/jql') {
      sendJson(res, 404, { errorMessages: ['Not found'], errors: {} });
      return 404;
    }
    if (state.failWith !== undefined) {
      sendJson(res, state.failWith, { errorMessages: ['Internal server error'], errors: {} });
      return state.failWith;
    }
    const jql = url.searchParams.get('jql');
    if (!jql) {
      sendJson(res, 400, { errorMessages: [], errors: { jql: 'The JQL query is required.' } });
      return 400;
    }
    const all = results.get(jql) ?? [];
    const token = url.searchParams.get('nextPageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8').replace('offset:', '')) : 0;
    if (!Number.isInteger(start) || start < 0) {
      sendJson(res, 400, { errorMessages: ['Invalid nextPageToken'], errors: {} });
      return 400;
    }
    const asked = Number(url.searchParams.get('maxResults') ?? 50);
    const size = Math.max(1, Math.min(state.pageSize, Number.isFinite(asked) ? asked : 50));
    const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
    const page = all.slice(start, start + size).map((issue) => ({
      ...issue,
      fields:
        fields.length === 0
          ? issue.fields
          : Object.fromEntries(Object.entries(issue.fields).filter(([name]) => fields.includes(name))),
    }));
    const next = start + size;
    sendJson(res, 200, {
      issues: page,
      ...(next < all.length ? { nextPageToken: Buffer.from(`offset:${next}`).toString('base64url') } : {}),
      isLast: next >= all.length,
    });
    return 200;
  };

  const answerIssue = (res: ServerResponse, url: URL, key: string): number => {
    if (state.failWith !== undefined) {
      sendJson(res, state.failWith, { errorMessages: ['Internal server error'], errors: {} });
      return state.failWith;
    }
    const issue = singleIssues.get(key);
    if (!issue) {
      sendJson(res, 404, {
        errorMessages: ['Issue does not exist or you do not have permission to see it.'],
        errors: {},
      });
      return 404;
    }
    const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
    sendJson(res, 200, {
      ...issue,
      fields:
        fields.length === 0
          ? issue.fields
          : Object.fromEntries(Object.entries(issue.fields).filter(([name]) => fields.includes(name))),
    });
    return 200;
  };

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const status = handle(req, res, url);
      requests.push({
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization,
        status: status ?? 0,
      });
    });
  });
  const { origin, close } = await listenOnLoopback(server);

  // The state object itself is returned, so tests switch faults and settings by assignment.
  return Object.assign(state, {
    url: origin,
    requests,
    setIssues: (jql, issues) => void results.set(jql, issues),
    setIssueStatus(key, { name, category }) {
      const number = Number(key.split('-').pop());
      const issue = singleIssues.get(key) ?? { ...fakeJiraIssue(number), key };
      const status = { name, statusCategory: { key: category } };
      singleIssues.set(key, { ...issue, fields: { ...issue.fields, status } });
    },
    deleteIssue: (key) => void singleIssues.delete(key),
    close,
  } satisfies Omit<FakeJira, keyof typeof state>);
}
