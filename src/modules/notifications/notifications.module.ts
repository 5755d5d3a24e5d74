import type { ModuleDeps } from '../../shared/module-deps.js';
import type { AppChange } from '../apps/apps.service.js';
import type { ApplicationDetails } from '../apps/apps.schema.js';
import { createPushDelivery, createFcmSenderFromConfig, type PushDelivery } from '../push/push.delivery.js';
import { createDeviceTokensRepository } from '../push/push.repository.js';
import { createPushService, type PushService } from '../push/push.service.js';
import type { IntegrationStatusTracker } from '../status/integration-status.js';
import { createWebhooksModule, type WebhooksModule } from '../webhooks/webhooks.module.js';
import { appUpdateNotification } from './app-change-notifications.js';
import type { NotificationSink } from './notification-sink.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { createNotificationsService, type NotificationsService } from './notifications.service.js';

export interface NotificationsModule {
  service: NotificationsService;
  pushService: PushService;
  delivery: PushDelivery;
  /** Webhook targets and their deliveries; every created notification is queued for them. */
  webhooks: WebhooksModule;
  /** Stores and pushes; hand it to the report pipeline and the pull-request job. */
  sink: NotificationSink;
  /** For `createAppsService({onAppChange})`: an `app_update` notification, in the background. */
  onAppChange: (change: AppChange, app: ApplicationDetails) => void;
  /**
   * Waits for background notifications, pushes and webhook deliveries started so far, and stops
   * this process's webhook dispatcher (call before closing the database).
   */
  drain(): Promise<void>;
}

/**
 * Notifications, device tokens and push delivery over one database, built once per process and
 * shared by its API and worker roles (one FCM sender). Without FCM credentials push is off and
 * says so once, here.
 */
export function createNotificationsModule(
  { config, db, log }: ModuleDeps,
  links: { integrationStatus: IntegrationStatusTracker },
): NotificationsModule {
  const deviceTokens = createDeviceTokensRepository(db);
  const sender = createFcmSenderFromConfig(config, log, links.integrationStatus.outcomes('fcm'));
  const delivery = createPushDelivery({ deviceTokens, sender, log });
  const webhooks = createWebhooksModule({ config, db, log });
  const service = createNotificationsService({
    notificationsRepository: createNotificationsRepository(db),
    push: (notification) => delivery.deliver(notification),
    afterCreate: (notification) => webhooks.enqueue(notification),
  });
  const pending = new Set<Promise<unknown>>();

  return {
    service,
    pushService: createPushService({ deviceTokens }),
    delivery,
    webhooks,
    sink: async (input) => void (await service.create(input)),
    onAppChange(change, app) {
      const task = service
        .create(appUpdateNotification(change, app))
        .catch((error: unknown) =>
          log.error({ err: error, appId: app.id }, 'could not store an app_update notification'),
        )
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await delivery.drain();
      await webhooks.dispatcher.stop();
    },
  };
}
