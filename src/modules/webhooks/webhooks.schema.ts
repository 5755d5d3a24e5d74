import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import {
  HttpUrl,
  Nullable,
  OrNull,
  Secret,
  StringEnum,
  Text,
  Timestamp,
} from '../../http/plumbing/schemas.js';
import { WEBHOOK_LIMITS } from '../../client/field-limits.js';
import { NotificationTypeSchema } from '../notifications/notifications.schema.js';

export const WEBHOOK_KINDS = ['slack', 'teams', 'generic'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** How many attempts `GET /api/webhooks/:id/deliveries` returns (and each webhook keeps). */
export const DELIVERY_LOG_SIZE = 50;

export const Webhook = Type.Object(
  {
    id: Type.Integer(),
    name: OrNull(Type.String()),
    kind: StringEnum(WEBHOOK_KINDS),
    url: Type.String({
      description: 'Scheme and host only, the rest masked: a Slack or Teams URL is itself a credential',
      examples: ['https://hooks.slack.com/…'],
    }),
    types: Type.Array(NotificationTypeSchema),
    createdAt: Timestamp,
    lastDeliveryAt: OrNull(Timestamp),
    lastStatus: OrNull(Type.Integer()),
    lastError: OrNull(Type.String()),
  },
  { $id: 'Webhook', title: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    notificationId: OrNull(Type.Integer({ description: 'null for a test message' })),
    attempt: Type.Integer({ minimum: 1 }),
    status: OrNull(Type.Integer({ description: 'HTTP status; null when no answer came' })),
    error: OrNull(Type.String()),
    durationMs: Type.Integer(),
    at: Timestamp,
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

const webhookFields = {
  url: HttpUrl(WEBHOOK_LIMITS.url),
  kind: StringEnum(WEBHOOK_KINDS),
  types: Type.Array(NotificationTypeSchema, { minItems: 1 }),
  secret: Nullable(Secret(WEBHOOK_LIMITS.secretMin, WEBHOOK_LIMITS.secretMax)),
  name: Nullable(Text(WEBHOOK_LIMITS.name)),
};

export const CreateWebhookBody = Type.Object(
  {
    url: webhookFields.url,
    kind: webhookFields.kind,
    types: Type.Optional(webhookFields.types),
    secret: Type.Optional(webhookFields.secret),
    name: Type.Optional(webhookFields.name),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Partial(Type.Object(webhookFields), { additionalProperties: false });
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;
export const UPDATABLE_WEBHOOK_FIELDS = Object.keys(webhookFields);

export const WebhookListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });

export const WebhookResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(Webhook) });
export const WebhookListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(Webhook)),
  pagination: Type.Optional(PaginationSchema),
});
export const DeliveryListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(WebhookDelivery)),
});
export const TestDeliveryResult = Type.Object({
  delivered: Type.Boolean(),
  status: OrNull(Type.Integer()),
  error: OrNull(Type.String()),
});
export type TestDeliveryResult = Static<typeof TestDeliveryResult>;
export const TestDeliveryResponse = Type.Object({ success: Type.Literal(true), data: TestDeliveryResult });
