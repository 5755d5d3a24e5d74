import type { DeviceTokensRepository } from './push.repository.js';

/** Registration of device tokens; both operations are idempotent. */
export function createPushService({ deviceTokens }: { deviceTokens: DeviceTokensRepository }) {
  return {
    /** Registers the token, or refreshes its last use when it is known already. */
    async register(token: string): Promise<void> {
      await deviceTokens.upsert(token.trim());
    },

    /** Forgets the token; true when it was registered. */
    async unregister(token: string): Promise<boolean> {
      return deviceTokens.remove(token.trim());
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
