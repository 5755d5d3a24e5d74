import type { NotificationInput } from '../modules/notifications/notification-sink.js';

/** `e2e:report:generate`: generate (or regenerate) the report of one date. */
export interface ReportRequestMessage {
  /** YYYY-MM-DD. */
  date: string;
  /** Names the request: copies heard by several workers are queued once. */
  requestId?: string;
  /** Added by the worker when it schedules a retry. */
  retryCount?: number;
}

/** `notification:create`: the input of `POST /api/notifications`; one API process stores and pushes it. */
export type NotificationCreateMessage = NotificationInput & {
  /** Names the message, so two reminders with the same text stay two notifications. */
  requestId?: string;
};

/** `apps:trigger:changed`: an app's E2E trigger was created, changed or removed. */
export interface TriggerChangeMessage {
  /** The process that made the change; it has told its own scheduler already. */
  origin: string;
  appId: number;
}

/** `cache:invalidate`: tables written by one process, for the response caches of the others. */
export interface CacheInvalidationMessage {
  /** The writing process, which has dropped its own entries already. */
  origin: string;
  tables: string[];
}

/** The catalogue: every broker channel and the payload published on it. */
export interface ChannelMessages {
  'e2e:report:generate': ReportRequestMessage;
  'notification:create': NotificationCreateMessage;
  'apps:trigger:changed': TriggerChangeMessage;
  'cache:invalidate': CacheInvalidationMessage;
}

export type Channel = keyof ChannelMessages;

export const CHANNELS = {
  reportGenerate: 'e2e:report:generate',
  notificationCreate: 'notification:create',
  appTriggerChanged: 'apps:trigger:changed',
  cacheInvalidate: 'cache:invalidate',
} as const satisfies Record<string, Channel>;
