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
  ValidateKeyResponse,
} from './dashboard-client.js';
export {
  DashboardApiError,
  DashboardClientError,
  DashboardNetworkError,
  DashboardTimeoutError,
} from './errors.js';
export type { Query, RequestOptions, TransportOptions } from './transport.js';
export type { JobName, JobRun, JobStatus } from '../modules/jobs/jobs.schema.js';
export type { ApplicationDetails, CreateAppBody, UpdateAppBody } from '../modules/apps/apps.schema.js';
export type { ToDoItem, CreateTodoBody, UpdateTodoBody } from '../modules/todos/todos.schema.js';
