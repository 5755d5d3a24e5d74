import type { FcmSender } from '../../integrations/fcm/fcm-sender.js';
import type { ModuleDeps } from '../module-deps.js';
import { createPushDelivery, type PushDelivery } from './push.delivery.js';
import { createDeviceTokensRepository } from './push.repository.js';
import { createPushService, type PushService } from './push.service.js';

export interface PushModule {
  /** Device-token registration (`POST /api/push/register`, `/unregister`). */
  service: PushService;
  /** Pushes each notification to every registered device in the background (off without FCM). */
  delivery: PushDelivery;
}

/** Device tokens and push delivery over the process's FCM sender (undefined: push is off). */
export function createPushModule({ db, log }: ModuleDeps, links: { fcm: FcmSender | undefined }): PushModule {
  const deviceTokens = createDeviceTokensRepository(db);
  return {
    service: createPushService({ deviceTokens }),
    delivery: createPushDelivery({ deviceTokens, sender: links.fcm, log }),
  };
}
