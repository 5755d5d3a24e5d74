/**
 * Public entry of the typed client: `import { DashboardClient } from '<package>/client'`.
 * Nothing here loads server code; the API types come from the server's TypeBox schemas.
 */
export { DashboardClient } from './dashboard-client.js';
export type {
  DashboardClientOptions,
  HealthResponse,
  MessageResponse,
  PageQuery,
  StatusResponse,
  ValidateKeyResponse,
} from './dashboard-client.js';
export {
  DashboardApiError,
  DashboardClientError,
  DashboardNetworkError,
  DashboardTimeoutError,
} from './errors.js';
export type { Query, RawBody, RequestOptions, TransportOptions } from './transport.js';
export type { UploadQuery } from './test-results-group.js';
export type {
  CreateTestQuarantineBody,
  FlakyEvidence,
  SpecTestCounts,
  TestDetail,
  TestError,
  TestListQuery,
  TestResult,
  TestStat,
  TestStatus,
} from './tests-group.js';
export type { JobName, JobRun, JobStatus } from '../modules/jobs/jobs.schema.js';
export type {
  AppRunsToday,
  ApplicationDetails,
  CreateAppBody,
  RunsToday,
  TriggerConfiguration,
  UpdateAppBody,
} from '../modules/apps/apps.schema.js';
export type { ToDoItem, CreateTodoBody, UpdateTodoBody } from '../modules/todos/todos.schema.js';
export type { RunReportOptions } from './resource-groups.js';
export type { PullRequest } from '../modules/pull-requests/pull-requests.schema.js';
export type { Notification, ReadAllFilter } from '../modules/notifications/notifications.schema.js';
export type { NotificationType } from '../modules/notifications/notification-sink.js';
export type {
  IntegrationStatus,
  ResultSources,
  ServiceStatus,
  UploadSourceStatus,
} from '../modules/status/status.schema.js';
export type { TicketList, TrackerTicket } from '../modules/tracker/tracker.schema.js';
export type { ManualRun } from '../modules/manual-runs/manual-runs.schema.js';
export type { ReportSummary } from '../modules/reports/reports.schema.js';
export type { FailureGroup, ReportChanges, SpecStat, TrendPoint } from '../modules/reports/insight.schema.js';
export type { Suspects } from '../modules/suspects/suspects.schema.js';
export type { PullRequestDetails, ReportDetail, ReportRun, Trends } from './response-types.js';
export type {
  CreateWebhookBody,
  TestDeliveryResult,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookKind,
} from '../modules/webhooks/webhooks.schema.js';
export type {
  CreateQuarantineBody,
  LiftedReason,
  Quarantine,
  SpecQuarantine,
} from '../modules/quarantine/quarantine.schema.js';
export type { ApiKey, CreatedApiKey, CreateKeyBody } from '../modules/keys/keys.schema.js';
export type { KeyScope } from '../shared/credentials.js';
export {
  APP_LIMITS,
  KEY_LIMITS,
  NOTIFICATION_LIMITS,
  QUARANTINE_LIMITS,
  TODO_LIMITS,
  WEBHOOK_LIMITS,
} from './field-limits.js';
export type { RunDetails, Verdict, VerdictFailure } from '../modules/verdict/verdict.schema.js';
