import type { Static } from '@sinclair/typebox';
import type {
  CreateWebhookBody,
  DeliveryListResponse,
  TestDeliveryResponse,
  UpdateWebhookBody,
  WebhookListResponse,
  WebhookResponse,
} from '../modules/webhooks/webhooks.schema.js';
import type { Caller, MessageResponse } from './resource-groups.js';

/** `/api/webhooks`: Slack, Teams and signed generic targets of every notification. */
export function webhooksGroup(client: Caller) {
  return {
    list: (query: { limit?: number; offset?: number } = {}) =>
      client.call<Static<typeof WebhookListResponse>>('GET', '/api/webhooks', { query: { ...query } }),
    get: (id: number) => client.call<Static<typeof WebhookResponse>>('GET', `/api/webhooks/${id}`),
    create: (body: CreateWebhookBody) =>
      client.call<Static<typeof WebhookResponse>>('POST', '/api/webhooks', { body }),
    update: (id: number, body: UpdateWebhookBody) =>
      client.call<Static<typeof WebhookResponse>>('PUT', `/api/webhooks/${id}`, { body }),
    remove: (id: number) => client.call<MessageResponse>('DELETE', `/api/webhooks/${id}`),
    /** Sends one test message now: a single attempt, never retried (so never repeated by the client). */
    test: (id: number) =>
      client.call<Static<typeof TestDeliveryResponse>>('POST', `/api/webhooks/${id}/test`),
    /** The last 50 delivery attempts, newest first. */
    deliveries: (id: number) =>
      client.call<Static<typeof DeliveryListResponse>>('GET', `/api/webhooks/${id}/deliveries`),
  };
}
