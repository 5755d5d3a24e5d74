import type { FcmSender } from '../../integrations/fcm/fcm-sender.js';
import type { Log } from '../../shared/log.js';
import type { DeviceTokensRepository } from './push.repository.js';
import { type PushableNotification, toPushMessage } from './push-message.js';

export interface PushDelivery {
  /** True when FCM credentials are configured. */
  readonly enabled: boolean;
  /** Starts delivering in the background and returns at once; failures are only logged. */
  deliver(notification: PushableNotification): void;
  /** Resolves when every delivery started so far has finished (shutdown, tests). */
  drain(): Promise<void>;
}

const PAGE_SIZE = 1000;

export function createPushDelivery(deps: {
  deviceTokens: DeviceTokensRepository;
  sender: FcmSender | undefined;
  log: Log;
}): PushDelivery {
  const { deviceTokens, sender, log } = deps;
  const running = new Set<Promise<void>>();

  async function deliverNow(notification: PushableNotification, fcm: FcmSender): Promise<void> {
    const message = toPushMessage(notification);
    const totals = { delivered: 0, removed: 0, failed: 0 };
    for (let afterId = 0; ;) {
      const page = await deviceTokens.page(afterId, PAGE_SIZE);
      if (page.length === 0) break;
      afterId = page[page.length - 1]!.id;
      const report = await fcm.send(
        message,
        page.map((row) => row.token),
      );
      totals.delivered += report.delivered;
      totals.failed += report.failed;
      if (report.invalidTokens.length > 0)
        totals.removed += await deviceTokens.removeMany(report.invalidTokens);
      if (page.length < PAGE_SIZE) break;
    }
    if (totals.delivered + totals.removed + totals.failed > 0) {
      log.info({ notificationId: notification.id, ...totals }, 'push delivered');
    }
  }

  return {
    enabled: sender !== undefined,
    deliver(notification) {
      if (!sender) return;
      const task = deliverNow(notification, sender)
        .catch((error: unknown) =>
          log.error({ err: error, notificationId: notification.id }, 'push delivery failed'),
        )
        .finally(() => running.delete(task));
      running.add(task);
    },
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
