/** The six notification types of the spec. */
export const NOTIFICATION_TYPES = [
  'e2e_failure',
  'e2e_success',
  'pr_update',
  'app_update',
  'system',
  'info',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface NotificationInput {
  title: string;
  message: string;
  type: NotificationType;
  data?: Record<string, unknown>;
}

/**
 * How other modules create notifications (report pipeline, pull-request job, application
 * changes) without knowing about storage or push delivery. The notifications module supplies it:
 * it stores the row and queues the push; it never throws for a push problem.
 */
export type NotificationSink = (input: NotificationInput) => Promise<void>;
