/**
 * The payloads of the broker's channels, one TypeBox schema each. They live here, below both the
 * broker and the modules, so that the broker can check every message it delivers without knowing
 * any module, and the modules can publish and receive them typed.
 *
 * Anyone with access to Redis may publish, and processes of an older or newer version share the
 * channels: so the schemas accept fields they do not name (a newer publisher may add some), and a
 * message that fails its schema is dropped by the broker before any handler sees it.
 */
import { type Static, Type } from '@sinclair/typebox';
import { NOTIFICATION_LIMITS } from '../client/field-limits.js';

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

/** Not empty and not only white space, like the API's text fields. */
const NonBlank = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });

/** `e2e:report:generate`: generate (or regenerate) the report of one date. */
export const ReportRequestMessage = Type.Object({
  /** YYYY-MM-DD (whether the day exists is the worker's check: it dead-letters the message). */
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  /** Names the request: copies heard by several workers are queued once. */
  requestId: Type.Optional(Type.String()),
  /** Added by the worker when it schedules a retry. */
  retryCount: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ReportRequestMessage = Static<typeof ReportRequestMessage>;

/** `notification:create`: the input of `POST /api/notifications`; one API process stores and pushes it. */
export const NotificationCreateMessage = Type.Object({
  title: NonBlank(NOTIFICATION_LIMITS.title),
  message: NonBlank(NOTIFICATION_LIMITS.message),
  type: Type.Union(NOTIFICATION_TYPES.map((type) => Type.Literal(type))),
  data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  /** Names the message, so two reminders with the same text stay two notifications. */
  requestId: Type.Optional(Type.String()),
});
export type NotificationCreateMessage = Static<typeof NotificationCreateMessage>;

/** `apps:trigger:changed`: an app's E2E trigger was created, changed or removed. */
export const TriggerChangeMessage = Type.Object({
  /** The process that made the change; it has told its own scheduler already. */
  origin: Type.String(),
  appId: Type.Integer(),
});
export type TriggerChangeMessage = Static<typeof TriggerChangeMessage>;

/** `cache:invalidate`: tables written by one process, for the response caches of the others. */
export const CacheInvalidationMessage = Type.Object({
  /** The writing process, which has dropped its own entries already. */
  origin: Type.String(),
  tables: Type.Array(Type.String()),
});
export type CacheInvalidationMessage = Static<typeof CacheInvalidationMessage>;

/** `keys:revoked`: a key made through `/api/keys` was revoked; every API process forgets it. */
export const KeyRevokedMessage = Type.Object({
  /** The revoking process, which has forgotten the key already. */
  origin: Type.String(),
  id: Type.Integer(),
});
export type KeyRevokedMessage = Static<typeof KeyRevokedMessage>;

/** The catalogue: every broker channel and the schema of what is published on it. */
export const CHANNEL_SCHEMAS = {
  // Any payload reaches the report worker: the contract has a report request that cannot be
  // read queued and dead-lettered (where an operator sees and replays it), not dropped unseen.
  // The worker reads it with `ReportRequestMessage`.
  'e2e:report:generate': Type.Unknown(),
  'notification:create': NotificationCreateMessage,
  'apps:trigger:changed': TriggerChangeMessage,
  'cache:invalidate': CacheInvalidationMessage,
  'keys:revoked': KeyRevokedMessage,
} as const;

export type Channel = keyof typeof CHANNEL_SCHEMAS;

/** The payload type of each channel. */
export type ChannelMessages = { [C in Channel]: Static<(typeof CHANNEL_SCHEMAS)[C]> };

/** The message a subscriber of `channel` receives. */
export type MessageOf<C extends Channel> = ChannelMessages[C];
