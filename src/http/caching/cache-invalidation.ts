import { type Broker, CHANNELS } from '../../broker/broker.js';
import type { CacheInvalidationMessage } from '../../broker/channels.js';
import type { WriteEvents } from '../../db/write-tracking.js';
import type { ResponseCache } from './response-cache.js';

/**
 * Publishes the tables of every write committed by this process, so that API processes elsewhere
 * drop their cached answers. Writes of one event-loop turn go out as one message. Nothing is sent
 * over the in-process broker: it only reaches this process, whose caches see the writes directly.
 * A failed publish (broker down) is left to the caches' TTL.
 */
export function shareWrites(writes: WriteEvents, broker: Broker): () => void {
  if (broker.kind === 'in-process') return () => undefined;
  let pending: Set<string> | undefined;
  const flush = () => {
    const tables = [...(pending ?? [])];
    pending = undefined;
    const message: CacheInvalidationMessage = { origin: writes.source, tables };
    broker.publish(CHANNELS.cacheInvalidate, message).catch(() => undefined);
  };
  return writes.onWrite((tables) => {
    if (!pending) {
      pending = new Set();
      setImmediate(flush);
    }
    for (const table of tables) pending.add(table);
  });
}

/**
 * Keeps `cache` true to the database: writes of this process drop entries synchronously, before
 * the write's request is answered; writes of other processes as their broker message arrives.
 * Returns the disconnect function.
 */
export async function connectResponseCache(
  cache: ResponseCache,
  sources: { writes: WriteEvents; broker?: Broker },
): Promise<() => Promise<void>> {
  const stopLocal = sources.writes.onWrite((tables) => cache.invalidate(tables));
  const stopRemote =
    sources.broker && sources.broker.kind !== 'in-process'
      ? await sources.broker.subscribe(CHANNELS.cacheInvalidate, (message) => {
          if (message.origin !== sources.writes.source) {
            cache.invalidate(message.tables);
          }
        })
      : undefined;
  return async () => {
    stopLocal();
    await stopRemote?.();
  };
}
