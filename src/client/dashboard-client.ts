import type { Static } from '@sinclair/typebox';
import type {
  AppListResponse,
  AppResponse,
  CreateAppBody,
  RunsTodayResponse,
  UpdateAppBody,
} from '../modules/apps/apps.schema.js';
import type { ValidateKeyResponse } from '../modules/auth/auth.schema.js';
import type { HealthResponse } from '../modules/health/health.schema.js';
import type { JobListResponse, JobName, JobRunAccepted } from '../modules/jobs/jobs.schema.js';
import type { StatusResponse } from '../modules/status/status.schema.js';
import type { SuspectsResponse } from '../modules/suspects/suspects.schema.js';
import type {
  CreateTodoBody,
  DeleteCompletedResponse,
  TodoListResponse,
  TodoResponse,
  UpdateTodoBody,
} from '../modules/todos/todos.schema.js';
import {
  manualRunsGroup,
  type MessageResponse,
  notificationsGroup,
  pullRequestsGroup,
  pushGroup,
  reportsGroup,
  trackerGroup,
} from './resource-groups.js';
import { createTransport, type Query, type TransportOptions } from './transport.js';
import { keysGroup } from './keys-group.js';
import { quarantineGroup } from './quarantine-group.js';
import { testResultsGroup } from './test-results-group.js';
import { testsGroup } from './tests-group.js';
import { webhooksGroup } from './webhooks-group.js';

// Only types come from the server's schema files (`import type` is erased at build time), so the
// client runs without loading any server code.

export interface PageQuery {
  limit?: number;
  offset?: number;
}

export type { HealthResponse, MessageResponse, StatusResponse, ValidateKeyResponse };

export type DashboardClientOptions = TransportOptions;

/** Typed client of the whole HTTP API; every method throws `DashboardApiError` on an error status. */
export class DashboardClient {
  private readonly transport;

  constructor(options: DashboardClientOptions) {
    this.transport = createTransport(options);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Any endpoint, typed by the caller: the escape hatch for paths this client does not wrap. */
  async call<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown; idempotent?: boolean; signal?: AbortSignal } = {},
  ): Promise<T> {
    return (await this.transport.request<T>(method, path, options)).body;
  }

  private get<T>(path: string, query?: Query) {
    return this.call<T>('GET', path, { query });
  }

  /** `GET /health`: also returns the 503 body (database down) instead of throwing. */
  async health(): Promise<HealthResponse & { httpStatus: number }> {
    const response = await this.transport.request<HealthResponse>('GET', '/health', {
      anonymous: true,
      acceptStatuses: [503],
    });
    return { ...response.body, httpStatus: response.status };
  }

  /**
   * `GET /api/status`: version, roles, database and broker, what each integration still needs and
   * when it last worked, and the jobs.
   */
  status(): Promise<StatusResponse> {
    return this.get<StatusResponse>('/api/status');
  }

  readonly auth = {
    /**
     * `POST /api/auth/validate`: a wrong or missing key answers `{valid: false, message,
     * attemptsRemaining}` (never throws for 400/401); a blocked address throws the 429.
     */
    validate: async (apiKey: string): Promise<ValidateKeyResponse> =>
      (
        await this.transport.request<ValidateKeyResponse>('POST', '/api/auth/validate', {
          anonymous: true,
          body: { apiKey },
          acceptStatuses: [400, 401],
        })
      ).body,
  };

  readonly apps = {
    list: (query: PageQuery = {}) => this.get<Static<typeof AppListResponse>>('/api/apps', { ...query }),
    /** Every application, fetched page by page. */
    listAll: async () => {
      const all: Static<typeof AppListResponse>['data'] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await this.apps.list({ limit: 100, offset });
        all.push(...page.data);
        if (!page.pagination?.hasMore) return all;
      }
    },
    get: (id: number) => this.get<Static<typeof AppResponse>>(`/api/apps/${id}`),
    create: (body: CreateAppBody) => this.call<Static<typeof AppResponse>>('POST', '/api/apps', { body }),
    update: (id: number, body: UpdateAppBody) =>
      this.call<Static<typeof AppResponse>>('PUT', `/api/apps/${id}`, { body }),
    remove: (id: number) => this.call<MessageResponse>('DELETE', `/api/apps/${id}`),
    /** The commits (and pull requests) between a failing spec's last pass and its streak. */
    suspects: (id: number, query: { spec: string; date: string }) =>
      this.get<Static<typeof SuspectsResponse>>(`/api/apps/${id}/suspects`, { ...query }),
    /** Today's CI runs per application from its results source, and its manual runs apart. */
    runsToday: () => this.get<Static<typeof RunsTodayResponse>>('/api/apps/runs_today'),
  };

  readonly todos = {
    list: (query: PageQuery & { order?: 'asc' | 'desc' } = {}) =>
      this.get<Static<typeof TodoListResponse>>('/api/to_do_list', { ...query }),
    get: (id: number) => this.get<Static<typeof TodoResponse>>(`/api/to_do_list/${id}`),
    create: (body: CreateTodoBody) =>
      this.call<Static<typeof TodoResponse>>('POST', '/api/to_do_list', { body }),
    update: (id: number, body: UpdateTodoBody) =>
      this.call<Static<typeof TodoResponse>>('PUT', `/api/to_do_list/${id}`, { body }),
    remove: (id: number) => this.call<MessageResponse>('DELETE', `/api/to_do_list/${id}`),
    /** `DELETE /api/to_do_list?completed=true` (the weekly job). */
    deleteCompleted: () =>
      this.call<Static<typeof DeleteCompletedResponse>>('DELETE', '/api/to_do_list', {
        query: { completed: 'true' },
      }),
  };

  readonly pullRequests = pullRequestsGroup(this);
  readonly tracker = trackerGroup(this);
  readonly notifications = notificationsGroup(this);
  readonly push = pushGroup(this);
  readonly manualRuns = manualRunsGroup(this);
  readonly reports = reportsGroup(this);
  readonly webhooks = webhooksGroup(this);
  readonly quarantine = quarantineGroup(this);
  readonly testResults = testResultsGroup(() => this.transport);
  readonly keys = keysGroup(this);
  /** Per-test results: a report's tests of an app, one test's history, a test's quarantine. */
  readonly tests = testsGroup(this);

  readonly jobs = {
    list: () => this.get<JobListResponse>('/api/jobs'),
    /** Starts a job now; resolves with the run record (202) without waiting for the job to end. */
    run: (name: JobName | (string & {})) =>
      this.call<JobRunAccepted>('POST', `/api/jobs/${encodeURIComponent(name)}/run`),
  };
}
