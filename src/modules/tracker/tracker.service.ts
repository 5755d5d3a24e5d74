import { ExternalServiceError } from '../../shared/errors.js';
import type { JiraClient, JiraIssue } from '../../integrations/jira/jira-client.js';
import { parseIsoInstant } from '../../shared/time.js';
import type { TicketList, TrackerTicket } from './tracker.schema.js';

export const MY_TICKETS_JQL = 'assignee = currentUser() AND resolution = Unresolved ORDER BY updated DESC';

export function manualQaJql(project: string): string {
  const quoted = project.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return `project = "${quoted}" AND labels = "manual_qa" AND status NOT IN ("Done", "Ready to Release", "To Do") ORDER BY created DESC`;
}

export interface TrackerServiceDeps {
  /** Undefined when Jira is not configured; every query then fails with 502. */
  jira: JiraClient | undefined;
  /** Variables whose absence leaves Jira unconfigured, named in the 502 message. */
  missingVariables: readonly string[];
  manualQaProject: string | undefined;
  /** `TRACKER_CACHE_MS`; 0 turns the cache off. */
  cacheMs: number;
  now?: () => number;
}

/** Jira timestamps (`2025-01-15T10:30:00.000+0100`) as ISO 8601 UTC with milliseconds. */
function toIso(value: string | null | undefined): string {
  return (value ? parseIsoInstant(value) : undefined) ?? new Date(0).toISOString();
}

export function toTicket(issue: JiraIssue, baseUrl: string): TrackerTicket {
  const { fields } = issue;
  const ticket: TrackerTicket = {
    id: issue.id,
    key: issue.key,
    url: `${baseUrl}/browse/${issue.key}`,
    summary: fields.summary ?? '',
    status: fields.status?.name ?? 'Unknown',
    created: toIso(fields.created),
    updated: toIso(fields.updated ?? fields.created),
    assignee: fields.assignee?.displayName ?? 'Unassigned',
    reporter: fields.reporter?.displayName ?? 'Unknown',
    labels: fields.labels ?? [],
    priority: fields.priority?.name ?? 'None',
  };
  if (fields.parent) {
    ticket.parent = {
      id: fields.parent.id,
      key: fields.parent.key,
      url: `${baseUrl}/browse/${fields.parent.key}`,
      summary: fields.parent.fields?.summary ?? '',
    };
  }
  return ticket;
}

/** The two fixed tracker queries (docs/contract-notes.md, "Tracker"), with a short-lived cache per query. */
export function createTrackerService({
  jira,
  missingVariables,
  manualQaProject,
  cacheMs,
  now = Date.now,
}: TrackerServiceDeps) {
  const cache = new Map<string, { expires: number; value: Promise<TicketList> }>();

  function run(jql: string): Promise<TicketList> {
    if (!jira) {
      return Promise.reject(
        new ExternalServiceError(
          'Jira',
          `The tracker is not configured (missing ${missingVariables.join(', ')})`,
        ),
      );
    }
    const hit = cache.get(jql);
    if (hit && hit.expires > now()) return hit.value;
    const value = jira.search(jql).then((issues) => ({
      total: issues.length,
      issues: issues.map((issue) => toTicket(issue, jira.baseUrl)),
    }));
    if (cacheMs > 0) {
      // Concurrent callers share one Jira call; a failure is not cached.
      cache.set(jql, { expires: now() + cacheMs, value });
      value.catch(() => cache.delete(jql));
    }
    return value;
  }

  return {
    manualQa(): Promise<TicketList> {
      if (jira && !manualQaProject) {
        return Promise.reject(
          new ExternalServiceError(
            'Jira',
            'The manual QA project is not configured (missing JIRA_MANUAL_QA_PROJECT)',
          ),
        );
      }
      return run(manualQaJql(manualQaProject ?? ''));
    },
    myTickets(): Promise<TicketList> {
      return run(MY_TICKETS_JQL);
    },
  };
}

export type TrackerService = ReturnType<typeof createTrackerService>;
