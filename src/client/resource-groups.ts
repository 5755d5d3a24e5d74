import type { Static } from '@sinclair/typebox';
import type {
  CreateNotificationBody,
  NotificationListQuery,
  NotificationListResponse,
  NotificationResponse,
  ReadAllFilter,
  ReadAllResponse,
  UpdateNotificationBody,
} from '../modules/notifications/notifications.schema.js';
import type {
  CreatePullRequestBody,
  PullRequestDetailsResponse,
  PullRequestListQuery,
  PullRequestListResponse,
  PullRequestResponse,
  SyncResponse,
  UpdatePullRequestBody,
} from '../modules/pull-requests/pull-requests.schema.js';
import type {
  ManualRunListQuery,
  ManualRunListResponse,
  ManualRunResponse,
} from '../modules/manual-runs/manual-runs.schema.js';
import type {
  DeadLetterListResponse,
  QueueStatusResponse,
  ReplayResponse,
  SummaryListQuery,
  SummaryListResponse,
  SummaryResponse,
  SummaryWithDetailsResponse,
} from '../modules/reports/reports.schema.js';
import type {
  ChangesResponse,
  FailureGroupsResponse,
  SpecListResponse,
  TrendsResponse,
} from '../modules/reports/insight.schema.js';
import type { TicketListResponse } from '../modules/tracker/tracker.schema.js';
import type { ReportDetail, ReportRun } from './response-types.js';
import type { Query } from './transport.js';

/** What a resource group needs from the client. */
export interface Caller {
  call<T>(
    method: string,
    path: string,
    options?: { query?: Query; body?: unknown; idempotent?: boolean },
  ): Promise<T>;
}

export interface MessageResponse {
  success: true;
  message: string;
}

export function pullRequestsGroup(client: Caller) {
  return {
    list: (query: PullRequestListQuery = {}) =>
      client.call<Static<typeof PullRequestListResponse>>('GET', '/api/pull_requests', {
        query: { ...query },
      }),
    /** Stored fields plus live `scmDetails` from the source-control host. */
    get: (id: number) =>
      client.call<Static<typeof PullRequestDetailsResponse>>('GET', `/api/pull_requests/${id}`),
    create: (body: CreatePullRequestBody) =>
      client.call<Static<typeof PullRequestResponse>>('POST', '/api/pull_requests', { body }),
    update: (id: number, body: UpdatePullRequestBody) =>
      client.call<Static<typeof PullRequestResponse>>('PUT', `/api/pull_requests/${id}`, { body }),
    remove: (id: number) => client.call<MessageResponse>('DELETE', `/api/pull_requests/${id}`),
    /**
     * `POST /api/pull_requests/sync` (the daily job). Safe to repeat: each event is sent once, so
     * it is retried like an idempotent request.
     */
    sync: () =>
      client.call<Static<typeof SyncResponse>>('POST', '/api/pull_requests/sync', { idempotent: true }),
  };
}

export function trackerGroup(client: Caller) {
  return {
    manualQa: () => client.call<Static<typeof TicketListResponse>>('GET', '/api/tracker/manual_qa'),
    myTickets: () => client.call<Static<typeof TicketListResponse>>('GET', '/api/tracker/my_tickets'),
  };
}

export function notificationsGroup(client: Caller) {
  return {
    list: (query: NotificationListQuery = {}) =>
      client.call<Static<typeof NotificationListResponse>>('GET', '/api/notifications', {
        query: { ...query },
      }),
    get: (id: number) => client.call<Static<typeof NotificationResponse>>('GET', `/api/notifications/${id}`),
    create: (body: CreateNotificationBody) =>
      client.call<Static<typeof NotificationResponse>>('POST', '/api/notifications', { body }),
    update: (id: number, body: UpdateNotificationBody) =>
      client.call<Static<typeof NotificationResponse>>('PUT', `/api/notifications/${id}`, { body }),
    /** 204: resolves with nothing. */
    markRead: async (id: number): Promise<void> => {
      await client.call<undefined>('PATCH', `/api/notifications/${id}/read`, { idempotent: true });
    },
    remove: async (id: number): Promise<void> => {
      await client.call<undefined>('DELETE', `/api/notifications/${id}`);
    },
    /** Marks every unread notification (of one type, when given) read; safe to repeat. */
    readAll: (filter: ReadAllFilter = {}) =>
      client.call<Static<typeof ReadAllResponse>>('POST', '/api/notifications/read_all', {
        query: { ...filter },
        idempotent: true,
      }),
  };
}

export function pushGroup(client: Caller) {
  return {
    /** Idempotent on the server (refreshes the token's last use). */
    register: (token: string) =>
      client.call<MessageResponse>('POST', '/api/push/register', { body: { token }, idempotent: true }),
    unregister: (token: string) =>
      client.call<MessageResponse>('POST', '/api/push/unregister', { body: { token }, idempotent: true }),
  };
}

export function manualRunsGroup(client: Caller) {
  return {
    /** Triggers a CircleCI pipeline for the app (422 when its trigger is disabled, 409 while one runs). */
    trigger: (appId: number) =>
      client.call<Static<typeof ManualRunResponse>>('POST', '/api/e2e_manual_runs', { body: { appId } }),
    list: (query: ManualRunListQuery = {}) =>
      client.call<Static<typeof ManualRunListResponse>>('GET', '/api/e2e_manual_runs', {
        query: { ...query },
      }),
  };
}

export interface RunReportOptions {
  /** `YYYY-MM-DD`; today (server side) when absent. */
  date?: string;
  /** Regenerate even when a report exists. */
  force?: boolean;
  enrichments?: { includeDetails?: boolean; includeAppInfo?: boolean; includeManualRuns?: boolean };
}

export function reportsGroup(client: Caller) {
  return {
    /**
     * `GET /api/e2e_run_report`: the ready (or failed) report, or — 202, not an error — a
     * `pending` summary while it is generated; poll again for the result.
     */
    run: (options: RunReportOptions = {}) =>
      client.call<ReportRun>('GET', '/api/e2e_run_report', {
        query: {
          date: options.date,
          force: options.force === undefined ? undefined : String(options.force),
          enrichments: options.enrichments ? JSON.stringify(options.enrichments) : undefined,
        },
      }),
    detail: (summaryId: number, appId: number) =>
      client.call<{ success: true; data: ReportDetail }>('GET', `/api/e2e_run_report/${summaryId}/${appId}`),
    /** Per-spec statistics of one app in a report: failing specs first (paginated). */
    specs: (summaryId: number, appId: number, page: { limit?: number; offset?: number } = {}) =>
      client.call<Static<typeof SpecListResponse>>('GET', `/api/e2e_run_report/${summaryId}/${appId}/specs`, {
        query: { ...page },
      }),
    /** The failed tests of the app's uploaded runs in the report's window, grouped by cause. */
    failureGroups: (summaryId: number, appId: number) =>
      client.call<Static<typeof FailureGroupsResponse>>(
        'GET',
        `/api/e2e_run_report/${summaryId}/${appId}/failure_groups`,
      ),
    /** What changed between the ready report of `date` and the one of the day before. */
    changes: (date: string) =>
      client.call<Static<typeof ChangesResponse>>(
        'GET',
        `/api/e2e_reports/${encodeURIComponent(date)}/changes`,
      ),
    summaries: (query: SummaryListQuery = {}) =>
      client.call<Static<typeof SummaryListResponse>>('GET', '/api/e2e_reports', { query: { ...query } }),
    summary: (date: string) =>
      client.call<Static<typeof SummaryResponse>>('GET', `/api/e2e_reports/${encodeURIComponent(date)}`),
    summaryWithDetails: (date: string) =>
      client.call<{
        success: true;
        data: {
          summary: Static<typeof SummaryWithDetailsResponse>['data']['summary'];
          details: ReportDetail[];
        };
      }>('GET', `/api/e2e_reports/${encodeURIComponent(date)}/details`),
    trends: (days?: number) =>
      client.call<Static<typeof TrendsResponse>>('GET', '/api/e2e_reports/trends', { query: { days } }),
    queue: () => client.call<Static<typeof QueueStatusResponse>>('GET', '/api/e2e_reports/queue'),
    deadLetters: () =>
      client.call<Static<typeof DeadLetterListResponse>>('GET', '/api/e2e_reports/dead_letter'),
    replayDeadLetters: () =>
      client.call<Static<typeof ReplayResponse>>('POST', '/api/e2e_reports/dead_letter/replay'),
  };
}
