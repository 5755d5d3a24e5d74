import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { Nullable, Text, Timestamp } from '../../http/plumbing/schemas.js';
import { NOTIFICATION_LIMITS } from '../../client/field-limits.js';
import { NOTIFICATION_TYPES, type NotificationType } from '../../shared/messages.js';

/** One of the six types; a single `enum` keeps a bad value to one INVALID_VALUE detail. */
export const NotificationTypeSchema = Type.Unsafe<NotificationType>({
  type: 'string',
  enum: [...NOTIFICATION_TYPES],
});

const DataSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Free-form context (e.g. {appId, appName, changeType}); any link goes into data.link',
});

export const Notification = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    message: Type.String(),
    type: NotificationTypeSchema,
    isRead: Type.Boolean(),
    createdAt: Timestamp,
    data: Type.Optional(DataSchema),
  },
  { $id: 'Notification', title: 'Notification' },
);
export type Notification = Static<typeof Notification>;

const notificationFields = {
  title: Text(NOTIFICATION_LIMITS.title),
  message: Text(NOTIFICATION_LIMITS.message),
  type: NotificationTypeSchema,
  data: Nullable(DataSchema),
};

export const CreateNotificationBody = Type.Object(
  {
    title: notificationFields.title,
    message: notificationFields.message,
    type: notificationFields.type,
    data: Type.Optional(notificationFields.data),
  },
  { additionalProperties: false },
);
export type CreateNotificationBody = Static<typeof CreateNotificationBody>;

export const UpdateNotificationBody = Type.Partial(
  Type.Object({ ...notificationFields, isRead: Type.Boolean() }),
  { additionalProperties: false },
);
export type UpdateNotificationBody = Static<typeof UpdateNotificationBody>;
export const UPDATABLE_NOTIFICATION_FIELDS = ['title', 'message', 'type', 'data', 'isRead'];

export const NotificationListQuery = Type.Object(
  {
    ...PaginationQuery,
    isRead: Type.Optional(Type.Boolean({ description: 'true or false' })),
    type: Type.Optional(NotificationTypeSchema),
    sort: Type.Optional(Type.Unsafe<'createdAt'>({ type: 'string', enum: ['createdAt'] })),
    order: Type.Optional(
      Type.Unsafe<'asc' | 'desc'>({ type: 'string', enum: ['asc', 'desc'], default: 'desc' }),
    ),
  },
  { additionalProperties: false },
);
export type NotificationListQuery = Static<typeof NotificationListQuery>;

/** `POST /api/notifications/read_all`: the optional type filter, as query parameter or body field. */
export const ReadAllFilter = Type.Object(
  { type: Type.Optional(NotificationTypeSchema) },
  { additionalProperties: false },
);
export type ReadAllFilter = Static<typeof ReadAllFilter>;
/** The body is optional: no body reaches validation as null. */
export const ReadAllBody = Nullable(ReadAllFilter);

export const ReadAllResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ updated: Type.Integer({ minimum: 0, description: 'notifications marked read' }) }),
});

export const NotificationResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Ref(Notification),
});
export const NotificationListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(Notification)),
  pagination: Type.Optional(PaginationSchema),
});
