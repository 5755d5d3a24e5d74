import type { ModuleDeps } from '../module-deps.js';
import type { AppChange } from '../apps/apps.service.js';
import type { ApplicationDetails } from '../apps/apps.schema.js';
import type { PushDelivery } from '../push/push.delivery.js';
import type { WebhooksModule } from '../webhooks/webhooks.module.js';
import { appUpdateNotification } from './app-change-notifications.js';
import type { NotificationSink } from './notification-sink.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { createNotificationsService, type NotificationsService } from './notifications.service.js';

export interface NotificationsModule {
  service: NotificationsService;
  /** Stores, pushes and queues for webhooks; hand it to the report pipeline and the jobs' modules. */
  sink: NotificationSink;
  /** For `createAppsService({onAppChange})`: an `app_update` notification, in the background. */
  onAppChange: (change: AppChange, app: ApplicationDetails) => void;
  /** Waits for the `app_update` notifications started so far (call before draining push and webhooks). */
  drain(): Promise<void>;
}

/**
 * Notifications over one database, built once per process and shared by its roles: every
 * created notification is pushed through `links.push` and queued for `links.webhooks`.
 */
export function createNotificationsModule(
  { db, log }: ModuleDeps,
  links: { push: Pick<PushDelivery, 'deliver'>; webhooks: Pick<WebhooksModule, 'enqueue'> },
): NotificationsModule {
  const service = createNotificationsService({
    notificationsRepository: createNotificationsRepository(db),
    push: (notification) => links.push.deliver(notification),
    afterCreate: (notification) => links.webhooks.enqueue(notification),
  });
  const pending = new Set<Promise<unknown>>();

  return {
    service,
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
    },
  };
}
