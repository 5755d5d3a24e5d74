import { ExternalServiceError } from '../../shared/errors.js';
import { type CallOutcomes, reportingOutcome, UNTRACKED } from '../call-outcomes.js';
import type { JiraSettings } from './jira-config.js';

/** The issue fields requested from Jira (docs/contract-notes.md, "Tracker"). */
export const JIRA_FIELDS = 'summary,status,created,updated,assignee,reporter,labels,priority,parent';
export const MAX_ISSUES = 500;
const PAGE_SIZE = 100;

export interface JiraIssue {
  id: string;
  key: string;
  fields: {
    summary?: string | null;
    status?: { name?: string; statusCategory?: { key?: string } | null } | null;
    created?: string | null;
    updated?: string | null;
    assignee?: { displayName?: string } | null;
    reporter?: { displayName?: string } | null;
    labels?: string[] | null;
    priority?: { name?: string } | null;
    parent?: { id: string; key: string; fields?: { summary?: string } } | null;
  };
}

interface SearchPage {
  issues?: JiraIssue[];
  nextPageToken?: string;
  isLast?: boolean;
}

export interface JiraClient {
  readonly baseUrl: string;
  /** Every issue of a JQL query (up to 500), following `nextPageToken`. */
  search(jql: string): Promise<JiraIssue[]>;
  /**
   * The status category key of one issue (`new`, `indeterminate`, `done`), or null when Jira
   * does not know the issue (deleted, moved out of reach): an answer, not a failure.
   */
  statusCategory(key: string): Promise<string | null>;
}

/** Jira's error body: `{errorMessages: [...], errors: {field: message}}`. */
function describeJiraError(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const { errorMessages, errors } = body as { errorMessages?: unknown; errors?: unknown };
    const parts = [
      ...(Array.isArray(errorMessages) ? errorMessages.map(String) : []),
      ...(errors && typeof errors === 'object' ? Object.values(errors).map(String) : []),
    ];
    if (parts.length > 0) return `Jira answered ${status}: ${parts.join('; ').slice(0, 300)}`;
  }
  if (status === 401) return 'Jira answered 401: the configured e-mail and API token were refused';
  return `Jira answered ${status}`;
}

/** Jira Cloud REST v3 enhanced search with Basic authentication (`JIRA_EMAIL:JIRA_API_TOKEN`). */
export function createJiraClient(
  settings: JiraSettings,
  timeoutMs: number,
  outcomes: CallOutcomes = UNTRACKED,
): JiraClient {
  const authorization = `Basic ${Buffer.from(`${settings.email}:${settings.apiToken}`).toString('base64')}`;

  const fetchPage = (jql: string, pageToken: string | undefined, maxResults: number) =>
    reportingOutcome(outcomes, () => requestPage(jql, pageToken, maxResults));

  async function requestPage(
    jql: string,
    pageToken: string | undefined,
    maxResults: number,
  ): Promise<SearchPage> {
    const url = new URL(`${settings.baseUrl}/rest/api/3/search/jql`);
    url.searchParams.set('jql', jql);
    url.searchParams.set('fields', JIRA_FIELDS);
    url.searchParams.set('maxResults', String(maxResults));
    if (pageToken) url.searchParams.set('nextPageToken', pageToken);
    const { status, body } = await getJson(url);
    if (status < 200 || status >= 300)
      throw new ExternalServiceError('Jira', describeJiraError(status, body));
    if (!body || typeof body !== 'object' || !Array.isArray((body as SearchPage).issues)) {
      throw new ExternalServiceError('Jira', 'Jira answered with an unexpected body');
    }
    return body;
  }

  async function requestStatusCategory(key: string): Promise<string | null> {
    const url = new URL(`${settings.baseUrl}/rest/api/3/issue/${encodeURIComponent(key)}`);
    url.searchParams.set('fields', 'status');
    const { status, body } = await getJson(url);
    if (status === 404) return null;
    if (status < 200 || status >= 300)
      throw new ExternalServiceError('Jira', describeJiraError(status, body));
    const category = (body as Partial<JiraIssue> | undefined)?.fields?.status?.statusCategory?.key;
    if (typeof category !== 'string') {
      throw new ExternalServiceError('Jira', `Jira answered without a status category for ${key}`);
    }
    return category;
  }

  async function getJson(url: URL): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ExternalServiceError(
        'Jira',
        timedOut ? `Jira did not answer within ${timeoutMs} ms` : 'Jira could not be reached',
      );
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  return {
    baseUrl: settings.baseUrl,
    async search(jql) {
      const issues: JiraIssue[] = [];
      let pageToken: string | undefined;
      do {
        const page = await fetchPage(jql, pageToken, Math.min(PAGE_SIZE, MAX_ISSUES - issues.length));
        issues.push(...(page.issues ?? []));
        pageToken = page.isLast === true ? undefined : page.nextPageToken;
      } while (pageToken && issues.length < MAX_ISSUES);
      return issues.slice(0, MAX_ISSUES);
    },
    statusCategory: (key) => reportingOutcome(outcomes, () => requestStatusCategory(key)),
  };
}
