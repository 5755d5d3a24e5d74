import { randomUUID } from 'node:crypto';
import { type Broker, CHANNELS } from '../../broker/broker.js';
import type { TriggerChangeMessage } from '../../broker/channels.js';
import type { Log } from '../../shared/log.js';

export interface TriggerChanges {
  /** An app's E2E trigger changed: tells this process's scheduler at once, others via the broker. */
  announce(appId: number): void;
  /** Calls `listener` for each change made here or in another process; resolves with the stop function. */
  listen(listener: (appId: number) => void): Promise<() => Promise<void>>;
}

/**
 * Per-app trigger schedules take effect as soon as an app is saved: the scheduler of this process
 * hears it directly, schedulers elsewhere through one broker message. A lost message (broker down)
 * is caught by the schedulers' periodic re-read of the apps.
 */
export function createTriggerChanges(broker: Broker, log: Log): TriggerChanges {
  const origin = randomUUID();
  const listeners = new Set<(appId: number) => void>();
  const tell = (appId: number) => {
    for (const listener of listeners) listener(appId);
  };
  return {
    announce(appId) {
      tell(appId);
      const message: TriggerChangeMessage = { origin, appId };
      broker.publish(CHANNELS.appTriggerChanged, message).catch((error: unknown) => {
        log.warn(
          { err: error, appId },
          'could not announce a trigger change; schedulers re-read apps periodically',
        );
      });
    },
    async listen(listener) {
      listeners.add(listener);
      const unsubscribe = await broker.subscribe(CHANNELS.appTriggerChanged, (message) => {
        if (message.origin !== origin) listener(message.appId);
      });
      return async () => {
        listeners.delete(listener);
        await unsubscribe();
      };
    },
  };
}
