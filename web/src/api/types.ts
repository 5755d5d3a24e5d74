/** Shapes of the public API (service spec + decisions), as the UI reads them. */

export interface LastRun {
  id: number;
  status: string;
  url: string;
  pipelineId: string;
  createdAt: string;
}

export interface TriggerConfiguration {
  enabled: boolean;
  schedule?: string;
  branch?: string;
  parameters?: Record<string, unknown>;
}

export interface Application {
  id: number;
  name: string;
  code: string;
  pipelineUrl: string;
  watching: boolean;
  e2eTriggerConfiguration: TriggerConfiguration | null;
  lastRun: LastRun | null;
  e2eRunsQuantity: number;
}

export interface ManualRun {
  id: number;
  appId: number;
  pipelineId: string;
  pipelineNumber?: number;
  status?: string;
  url?: string;
  createdAt: string;
}

export interface ReportSummary {
  id?: number;
  date: string;
  status: 'ready' | 'pending' | 'failed';
  totalRuns: number;
  passedRuns: number;
  failedRuns: number;
  successRate: number;
}

export interface ReportDetail {
  id: number;
  reportSummaryId: number;
  appId: number;
  totalRuns: number;
  passedRuns: number;
  failedRuns: number;
  flakyRuns?: number;
  successRate: number;
  lastRunStatus: 'passed' | 'failed';
  lastRunAt: string;
  lastFailedRunAt: string | null;
  app?: Application & { manualRuns?: ManualRun[] };
}

export interface ReportResponse {
  success: boolean;
  summary: ReportSummary;
  details?: ReportDetail[];
  message?: string;
}

export interface PullRequest {
  id: number;
  url: string;
  title: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface ScmDetails {
  number: number;
  state: string;
  title: string;
  body: string | null;
  user: { login: string; avatar_url: string };
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  draft: boolean;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  mergeable: boolean | null;
  mergeable_state: string;
  comments: number;
  review_comments: number;
  commits: number;
  additions: number;
  deletions: number;
  changed_files: number;
}

export interface Ticket {
  id: string;
  key: string;
  url: string;
  summary: string;
  status: string;
  created: string;
  updated: string;
  assignee: string;
  reporter: string;
  labels: string[];
  priority: string;
  parent?: { id: string; key: string; url: string; summary: string };
}

export interface TicketList {
  total: number;
  issues: Ticket[];
}

export interface Todo {
  id: number;
  title: string;
  description: string | null;
  link: string | null;
  dueDate: string | null;
  isCompleted: boolean;
}

export const NOTIFICATION_TYPES = [
  'e2e_failure',
  'e2e_success',
  'pr_update',
  'app_update',
  'system',
  'info',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface AppNotification {
  id: number;
  title: string;
  message: string;
  type: NotificationType;
  isRead: boolean;
  createdAt: string;
  data?: Record<string, unknown>;
}
