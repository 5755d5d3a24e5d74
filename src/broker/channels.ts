/**
 * The channel catalogue. The payload schemas and types are in `src/shared/messages.ts`, which the
 * broker and the modules both import; this file names the channels for publishers and subscribers.
 */
import type { Channel } from '../shared/messages.js';

export type {
  CacheInvalidationMessage,
  Channel,
  ChannelMessages,
  KeyRevokedMessage,
  MessageOf,
  NotificationCreateMessage,
  ReportRequestMessage,
  TriggerChangeMessage,
} from '../shared/messages.js';

export const CHANNELS = {
  reportGenerate: 'e2e:report:generate',
  notificationCreate: 'notification:create',
  appTriggerChanged: 'apps:trigger:changed',
  cacheInvalidate: 'cache:invalidate',
  keyRevoked: 'keys:revoked',
} as const satisfies Record<string, Channel>;
