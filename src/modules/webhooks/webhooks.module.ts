import { randomUUID } from 'node:crypto';
import type { sendWebhook } from '../../integrations/webhooks/webhook-sender.js';
import type { ModuleDeps } from '../module-deps.js';
import type { Notification } from '../notifications/notifications.schema.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhook-dispatcher.js';
import { createWebhookJobsRepository } from './webhook-jobs.repository.js';
import type { WebhookEvent } from './webhook-payloads.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { createWebhooksService, type WebhooksService } from './webhooks.service.js';

export interface WebhooksModule {
  service: WebhooksService;
  dispatcher: WebhookDispatcher;
  /**
   * Queues one delivery per webhook whose types include the notification's, in the database,
   * and wakes this process's dispatcher. Never throws: a webhook problem must not fail the
   * request or job that created the notification.
   */
  enqueue(notification: Notification): Promise<void>;
}

/** Webhook targets, their queued deliveries and the dispatcher that sends them through `links.send`. */
export function createWebhooksModule(
  { config, db, log }: ModuleDeps,
  links: { send: typeof sendWebhook },
): WebhooksModule {
  const webhooks = createWebhooksRepository(db);
  const jobs = createWebhookJobsRepository(db);
  const delivery = {
    send: links.send,
    timeoutMs: config.externalTimeoutMs,
    refuseInternal: config.isProduction && !config.webhooks.allowPrivate,
  };
  const dispatcher = createWebhookDispatcher({
    ...delivery,
    webhooks,
    jobs,
    log,
    retryDelaysMs: config.webhooks.retryDelaysMs,
    pollMs: config.webhooks.pollMs,
  });

  return {
    service: createWebhooksService({ webhooks, jobs, delivery }),
    dispatcher,
    async enqueue(notification) {
      try {
        const targets = (await webhooks.all()).filter((row) =>
          (JSON.parse(row.types) as string[]).includes(notification.type),
        );
        if (targets.length === 0) return;
        const event: WebhookEvent = {
          id: notification.id,
          type: notification.type,
          title: notification.title,
          message: notification.message,
          data: notification.data ?? null,
          createdAt: notification.createdAt,
        };
        const payload = JSON.stringify(event);
        await jobs.enqueue(
          targets.map((row) => ({
            webhookId: row.id,
            notificationId: notification.id,
            deliveryId: randomUUID(),
            eventType: notification.type,
            payload,
          })),
        );
        dispatcher.wake();
      } catch (error) {
        log.error({ err: error, notificationId: notification.id }, 'could not queue webhook deliveries');
      }
    },
  };
}
