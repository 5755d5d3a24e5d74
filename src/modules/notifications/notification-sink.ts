import type { NotificationType } from '../../shared/messages.js';

// The types are shared with the broker's `notification:create` schema.
export { NOTIFICATION_TYPES, type NotificationType } from '../../shared/messages.js';

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
