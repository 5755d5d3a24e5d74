import type {
  Broker,
  BrokerOptions,
  DeadLetterEntry,
  MessageHandler,
  QueueStats,
  ReportQueue,
} from './broker.js';
import { acceptMessage } from './message-check.js';

interface Expiring {
  value: string;
  expiresAt: number;
}

/**
 * The embedded-default broker: the same contract as the Redis one, held in this process's memory
 * (one process runs the API and the worker, so nothing needs to be shared). Nothing survives a
 * restart; the stale-pending sweep at start re-queues what was lost.
 */
export function createInProcessBroker(
  options: BrokerOptions & { onHandlerError?: (error: unknown) => void } = {},
): Broker {
  const namespace = options.namespace ?? '';
  // Handlers are stored untyped: the broker checks each message before any of them sees it.
  const handlers = new Map<string, Set<MessageHandler>>();
  const claims = new Map<string, number>();
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new Error('The in-process broker is closed');
  };

  return {
    kind: 'in-process',
    async publish(channel, message) {
      ensureOpen();
      // Messages cross the broker as JSON here too, so both implementations hand out equal copies.
      const copy = JSON.stringify(message);
      const targets = [...(handlers.get(namespace + channel) ?? [])];
      // Delivered on a later tick, like a real broker: publish never runs handlers inline.
      setImmediate(() => {
        if (targets.length === 0 || !acceptMessage(channel, JSON.parse(copy), options.log)) return;
        for (const handler of targets) {
          Promise.resolve()
            .then(() => handler(JSON.parse(copy) as unknown))
            .catch((error: unknown) => options.onHandlerError?.(error));
        }
      });
    },
    async subscribe(channel, handler) {
      ensureOpen();
      const name = namespace + channel;
      const set = handlers.get(name) ?? new Set<MessageHandler>();
      handlers.set(name, set);
      set.add(handler as MessageHandler);
      return async () => {
        set.delete(handler as MessageHandler);
      };
    },
    async claimOnce(key, ttlMs) {
      ensureOpen();
      const now = Date.now();
      const until = claims.get(key);
      if (until !== undefined && until > now) return false;
      claims.set(key, now + ttlMs);
      if (claims.size > 10_000) {
        for (const [name, expiry] of claims) if (expiry <= now) claims.delete(name);
      }
      return true;
    },
    ping() {
      ensureOpen();
    },
    reportQueue: createInProcessQueue(ensureOpen),
    async close() {
      closed = true;
      handlers.clear();
    },
  };
}

function createInProcessQueue(ensureOpen: () => void): ReportQueue {
  // Queue head is index 0 (oldest first).
  const queue: { payload: string; enqueuedAt: number }[] = [];
  const inFlight = new Map<string, string[]>();
  const retries: { payload: string; dueAt: number }[] = [];
  const failed: string[] = [];
  const dedup = new Map<string, number>();
  const alive = new Map<string, number>();
  const locks = new Map<string, Expiring>();
  const waiters = new Set<() => void>();
  let staleRepublished = 0;
  let dataMarked = false;

  const push = (payload: string) => {
    queue.push({ payload, enqueuedAt: Date.now() });
    for (const wake of [...waiters]) wake();
  };
  const removeInFlight = (workerId: string, payload: string): boolean => {
    const list = inFlight.get(workerId);
    const index = list?.indexOf(payload) ?? -1;
    if (!list || index < 0) return false;
    list.splice(index, 1);
    return true;
  };
  const lockHeldBy = (name: string, owner: string) => {
    const lock = locks.get(name);
    return lock !== undefined && lock.expiresAt > Date.now() && lock.value === owner;
  };

  return {
    async enqueue(payload, dedupKey, dedupWindowMs = 10_000) {
      ensureOpen();
      const now = Date.now();
      if (dedupKey !== undefined) {
        const until = dedup.get(dedupKey);
        if (until !== undefined && until > now) return false;
        dedup.set(dedupKey, now + dedupWindowMs);
        if (dedup.size > 10_000) for (const [key, expiry] of dedup) if (expiry <= now) dedup.delete(key);
      }
      push(payload);
      return true;
    },
    async take(workerId, waitMs) {
      ensureOpen();
      const grab = () => {
        const next = queue.shift();
        if (!next) return undefined;
        const list = inFlight.get(workerId) ?? [];
        inFlight.set(workerId, list);
        list.push(next.payload);
        return next.payload;
      };
      const now = grab();
      if (now !== undefined || waitMs <= 0) return now;
      return new Promise<string | undefined>((resolve) => {
        const wake = () => {
          const taken = grab();
          if (taken === undefined) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(taken);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(undefined);
        }, waitMs);
        waiters.add(wake);
      });
    },
    async complete(workerId, payload) {
      removeInFlight(workerId, payload);
    },
    async retryLater(workerId, payload, retryPayload, dueAtMs) {
      ensureOpen();
      if (removeInFlight(workerId, payload)) retries.push({ payload: retryPayload, dueAt: dueAtMs });
    },
    async deadLetter(workerId, payload, entry: DeadLetterEntry) {
      ensureOpen();
      if (removeInFlight(workerId, payload)) failed.unshift(JSON.stringify(entry));
    },
    async promoteDueRetries(nowMs) {
      ensureOpen();
      retries.sort((a, b) => a.dueAt - b.dueAt);
      let moved = 0;
      while (retries.length > 0 && retries[0]!.dueAt <= nowMs) {
        push(retries.shift()!.payload);
        moved += 1;
      }
      return moved;
    },
    async heartbeat(workerId, ttlMs) {
      ensureOpen();
      alive.set(workerId, Date.now() + ttlMs);
      if (!inFlight.has(workerId)) inFlight.set(workerId, []);
    },
    async recoverAbandoned() {
      const now = Date.now();
      let moved = 0;
      for (const [workerId, list] of inFlight) {
        if ((alive.get(workerId) ?? 0) > now) continue;
        for (const payload of list) push(payload);
        moved += list.length;
        inFlight.delete(workerId);
        alive.delete(workerId);
      }
      return moved;
    },
    async retire(workerId) {
      for (const payload of inFlight.get(workerId) ?? []) push(payload);
      inFlight.delete(workerId);
      alive.delete(workerId);
    },
    async acquireLock(name, owner, ttlMs) {
      ensureOpen();
      const lock = locks.get(name);
      if (lock && lock.expiresAt > Date.now()) return false;
      locks.set(name, { value: owner, expiresAt: Date.now() + ttlMs });
      return true;
    },
    async extendLock(name, owner, ttlMs) {
      if (!lockHeldBy(name, owner)) return false;
      locks.set(name, { value: owner, expiresAt: Date.now() + ttlMs });
      return true;
    },
    async releaseLock(name, owner) {
      if (locks.get(name)?.value === owner) locks.delete(name);
    },
    async stats(nowMs): Promise<QueueStats> {
      ensureOpen();
      const oldest = queue[0];
      return {
        queued: queue.length,
        inFlight: [...inFlight.values()].reduce((sum, list) => sum + list.length, 0),
        scheduledRetries: retries.length,
        deadLetters: failed.length,
        oldestAgeMs: oldest ? Math.max(0, nowMs - oldest.enqueuedAt) : null,
        staleRepublished,
      };
    },
    async countStaleRepublished(count) {
      ensureOpen();
      staleRepublished += count;
    },
    async heldMessages() {
      ensureOpen();
      return [
        ...queue.map((entry) => entry.payload),
        ...[...inFlight.values()].flat(),
        ...retries.map((entry) => entry.payload),
      ];
    },
    async claimDataMarker() {
      ensureOpen();
      // Memory is lost only with the process, so only the first call finds the marker missing.
      if (dataMarked) return false;
      dataMarked = true;
      return true;
    },
    async deadLetters(limit) {
      return failed.slice(0, limit).map((text) => JSON.parse(text) as DeadLetterEntry);
    },
    async replayDeadLetters() {
      ensureOpen();
      // Oldest dead letter first, like the Redis list read from its tail.
      const entries = failed.splice(0, failed.length).reverse();
      for (const text of entries) push((JSON.parse(text) as DeadLetterEntry).message);
      return entries.length;
    },
  };
}
