import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, DbBoolean } from './column-types.js';
import type {
  TestResultUploadsTable,
  TestResultSpecsTable,
  TestIdentitiesTable,
  TestResultFailuresTable,
  ReportRefreshesTable,
  ApiKeysTable,
  PrFeedbackRunsTable,
  PrFeedbackDeliveriesTable,
  PrFeedbackCommentsTable,
  TestWindowStatesTable,
  TestWindowTestsTable,
} from './schema-results.js';

/**
 * Row types of every table. Timestamps are stored as ISO 8601 text (`YYYY-MM-DDTHH:mm:ss.sssZ`)
 * on both dialects: the fixed format sorts lexicographically in time order, so queries and
 * results are identical on SQLite and PostgreSQL. Booleans are written as 0/1 (SQLite cannot
 * bind booleans; PostgreSQL accepts 0/1 for a boolean parameter) and read back as either.
 * JSON values are stored as text for the same reason.
 */

export interface AppsTable {
  id: Generated<number>;
  name: string;
  code: string;
  pipeline_url: string;
  watching: DbBoolean;
  e2e_trigger_configuration: string | null;
  /** Page of the app's source repository (`https://github.com/<owner>/<repo>`); null until set. */
  repository_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The branch a run's failures are compared with (migration 014). */
  default_branch: ColumnType<string, string | undefined, string>;
  /** `off`, `status`, `comment` or `both`: what a settled run posts on GitHub. */
  pr_feedback: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: string;
}

export interface TodosTable {
  id: Generated<number>;
  title: string;
  description: string | null;
  link: string | null;
  due_date: string | null;
  is_completed: DbBoolean;
  created_at: CreatedAt;
  updated_at: string;
}

export interface PullRequestsTable {
  id: Generated<number>;
  url: string;
  owner: string;
  repo: string;
  number: number;
  title: string;
  status: string;
  /** JSON array of the pull-request job events already notified (section 14). */
  notified_events: string;
  etag: string | null;
  /** JSON of the last GitHub answer, reused when GitHub replies 304 Not Modified. */
  scm_cache: string | null;
  /** GitHub's `created_at`, `draft` and `mergeable_state`; null until read from GitHub. */
  opened_at: string | null;
  draft: ColumnType<boolean | number | null, number | null, number | null>;
  mergeable_state: string | null;
  created_at: CreatedAt;
  updated_at: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  title: string;
  message: string;
  type: string;
  is_read: DbBoolean;
  data: string | null;
  created_at: CreatedAt;
}

export interface DeviceTokensTable {
  id: Generated<number>;
  token: string;
  /** sha256 of the token: tokens may be up to 4096 chars, too long for a unique btree index. */
  token_hash: string;
  created_at: CreatedAt;
  last_used_at: string;
}

export interface E2eManualRunsTable {
  id: Generated<number>;
  app_id: number;
  pipeline_id: string;
  pipeline_number: number | null;
  status: string;
  url: string;
  created_at: CreatedAt;
  updated_at: string;
}

export interface E2eReportSummariesTable {
  id: Generated<number>;
  date: string;
  status: string;
  total_runs: number;
  passed_runs: number;
  failed_runs: number;
  success_rate: number;
  day_total_runs: Generated<number>;
  day_passed_runs: Generated<number>;
  day_failed_runs: Generated<number>;
  /** JSON array of app ids, written when the report is generated. */
  apps_without_runs: string | null;
  created_at: CreatedAt;
  updated_at: string;
  /** When the figures and details on this row were generated; null until the date is first ready. */
  ready_at: Generated<string | null>;
  /** The generation under way or failed (null on a ready row): 1-based attempt, next due time, last error. */
  attempt: Generated<number | null>;
  next_attempt_at: Generated<string | null>;
  last_error: Generated<string | null>;
  /** When the generation under way (or failed) was requested. */
  queued_at: Generated<string | null>;
}

export interface E2eReportDetailsTable {
  id: Generated<number>;
  report_summary_id: number;
  app_id: number;
  total_runs: number;
  passed_runs: number;
  failed_runs: number;
  flaky_runs: number;
  success_rate: number;
  last_run_status: string;
  last_run_number: number | null;
  last_run_at: string;
  last_failed_run_at: string | null;
  day_total_runs: Generated<number>;
  day_passed_runs: Generated<number>;
  day_failed_runs: Generated<number>;
  last_failure_author: string | null;
  created_at: CreatedAt;
}

export interface E2eReportSpecsTable {
  id: Generated<number>;
  report_detail_id: number;
  position: number;
  spec: string;
  total_runs: number;
  failed_runs: number;
  flaky_runs: number;
  success_rate: number;
  last_status: string;
  last_run_number: number | null;
  last_run_at: string;
  last_failed_at: string | null;
  failing_since: string | null;
  avg_duration_ms: number | null;
  last_failure_author: string | null;
  /** JSON of the spec's history, run links, streak commits and last error (null before 010). */
  history: string | null;
}

export interface JobRunsTable {
  id: Generated<number>;
  job_name: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  outcome: string;
  error: string | null;
}

/** One row per integration (`cypress`, `github`, `jira`, `circleci`, `fcm`), upserted by its clients. */
export interface IntegrationStatusTable {
  name: string;
  last_success_at: string | null;
  /** Short message of the latest failure since the last success; null once a call succeeds again. */
  last_error: string | null;
  last_error_at: string | null;
  updated_at: string;
}

/** An outgoing webhook target; `types` is a JSON array of notification types. */
export interface WebhooksTable {
  id: Generated<number>;
  name: string | null;
  kind: string;
  url: string;
  secret: string | null;
  types: string;
  last_delivery_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: string;
}

/** A delivery still to be made; `claimed_until` is the lease of the process sending it. */
export interface WebhookJobsTable {
  id: Generated<number>;
  webhook_id: number;
  notification_id: number | null;
  delivery_id: string;
  event_type: string;
  /** JSON of the notification as it was created (sent even if the row is deleted meanwhile). */
  payload: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  claimed_until: string | null;
  created_at: CreatedAt;
}

/** One attempt to deliver to a webhook (status null when no HTTP answer came). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  notification_id: number | null;
  delivery_id: string;
  attempt: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
  at: string;
}

/** The suspects between two commits of a repository, as JSON; written once, never changed. */
export interface SuspectRangesTable {
  /** `owner/repo` in lower case (GitHub names are case-insensitive). */
  repository: string;
  base_sha: string;
  head_sha: string;
  answer: string;
  created_at: string;
}

/** A known failure (`lifted_at` null while active); see migration 008. */
export interface QuarantinesTable {
  id: Generated<number>;
  app_id: number;
  spec: string;
  reason: string;
  ticket_key: string | null;
  expires_at: string | null;
  created_at: CreatedAt;
  lifted_at: string | null;
  lifted_reason: string | null;
  /** The title path of the one test it sets aside; '' for the whole spec (migration 013). */
  test: ColumnType<string, string | undefined, string>;
}

export interface Database {
  apps: AppsTable;
  todos: TodosTable;
  pull_requests: PullRequestsTable;
  notifications: NotificationsTable;
  device_tokens: DeviceTokensTable;
  e2e_manual_runs: E2eManualRunsTable;
  e2e_report_summaries: E2eReportSummariesTable;
  e2e_report_details: E2eReportDetailsTable;
  e2e_report_specs: E2eReportSpecsTable;
  job_runs: JobRunsTable;
  integration_status: IntegrationStatusTable;
  webhooks: WebhooksTable;
  webhook_jobs: WebhookJobsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  suspect_ranges: SuspectRangesTable;
  quarantines: QuarantinesTable;
  test_result_uploads: TestResultUploadsTable;
  test_result_specs: TestResultSpecsTable;
  test_result_failures: TestResultFailuresTable;
  test_identities: TestIdentitiesTable;
  report_refreshes: ReportRefreshesTable;
  api_keys: ApiKeysTable;
  pr_feedback_runs: PrFeedbackRunsTable;
  pr_feedback_deliveries: PrFeedbackDeliveriesTable;
  pr_feedback_comments: PrFeedbackCommentsTable;
  test_window_states: TestWindowStatesTable;
  test_window_tests: TestWindowTestsTable;
}

/** The name of a table, as routes name the tables their cached answers are read from. */
export type TableName = keyof Database;
