import type { Redis } from 'ioredis';
import type {
  Broker,
  BrokerOptions,
  DeadLetterEntry,
  MessageHandler,
  QueueStats,
  ReportQueue,
} from './broker.js';
import { reportKeys } from './broker.js';
import { acceptMessage } from './message-check.js';
import { createRedisConnection } from './redis-connection.js';
import * as scripts from './redis-scripts.js';

export interface RedisBrokerOptions extends BrokerOptions {
  url: string;
  /** Told about errors thrown by subscription handlers and background connection errors. */
  onError?: (error: unknown) => void;
}

const DOWN_STATES = new Set(['reconnecting', 'close', 'end']);

type ScriptRunner = (keys: string[], args: (string | number)[]) => Promise<unknown>;

/** Runs a Lua script by SHA (EVALSHA), loading it on the first NOSCRIPT. */
function scriptRunner(redis: Redis, name: string, lua: string, numberOfKeys: number): ScriptRunner {
  redis.defineCommand(name, { lua, numberOfKeys });
  const command = (redis as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[
    name
  ]!.bind(redis);
  return (keys, args) => command(...keys, ...args);
}

/**
 * The scale-out broker (REDIS_URL): pub/sub on one connection, commands on another, and one
 * blocking connection per worker id for BLMOVE. Every connection follows the spec's retry policy
 * and reconnects forever; a command issued while Redis is down rejects after its 3 retries.
 */
export function createRedisBroker(options: RedisBrokerOptions): Broker {
  const namespace = options.namespace ?? '';
  const keys = reportKeys(namespace);
  const base = `${namespace}e2e:report:`;
  const onError = options.onError ?? (() => undefined);
  const command = createRedisConnection(options.url);
  command.on('error', onError);
  let subscriber: Redis | undefined;
  // Handlers are stored untyped: the broker checks each message before any of them sees it.
  const handlers = new Map<string, Set<MessageHandler>>();
  const blocking = new Map<string, Redis>();

  const run = {
    enqueue: scriptRunner(command, 'reportEnqueue', scripts.ENQUEUE, 3),
    retryLater: scriptRunner(command, 'reportRetryLater', scripts.RETRY_LATER, 2),
    deadLetter: scriptRunner(command, 'reportDeadLetter', scripts.DEAD_LETTER, 2),
    promote: scriptRunner(command, 'reportPromote', scripts.PROMOTE_DUE, 3),
    recover: scriptRunner(command, 'reportRecover', scripts.RECOVER, 3),
    extendLock: scriptRunner(command, 'reportExtendLock', scripts.EXTEND_LOCK, 1),
    releaseLock: scriptRunner(command, 'reportReleaseLock', scripts.RELEASE_LOCK, 1),
    stats: scriptRunner(command, 'reportStats', scripts.STATS, 5),
    replay: scriptRunner(command, 'reportReplay', scripts.REPLAY_DEAD_LETTERS, 3),
    held: scriptRunner(command, 'reportHeld', scripts.HELD_MESSAGES, 3),
  };

  function subscriberConnection(): Redis {
    if (subscriber) return subscriber;
    subscriber = command.duplicate();
    subscriber.on('error', onError);
    // Channels whose SUBSCRIBE failed (Redis absent at boot) are known only here, not to ioredis'
    // own re-subscription: (re)subscribe every wanted channel each time the connection is ready.
    subscriber.on('ready', () => {
      const channels = [...handlers.keys()];
      if (channels.length > 0) subscriber?.subscribe(...channels).catch(onError);
    });
    subscriber.on('message', (channel: string, text: string) => {
      let message: unknown = text;
      try {
        message = JSON.parse(text) as unknown;
      } catch {
        // Not JSON: the text itself is the message (which no channel of the catalogue accepts).
      }
      const targets = handlers.get(channel);
      if (!targets || !acceptMessage(channel.slice(namespace.length), message, options.log)) return;
      for (const handler of targets) {
        Promise.resolve()
          .then(() => handler(message))
          .catch(onError);
      }
    });
    return subscriber;
  }

  function blockingConnection(workerId: string): Redis {
    let connection = blocking.get(workerId);
    if (!connection) {
      connection = command.duplicate();
      connection.on('error', onError);
      blocking.set(workerId, connection);
    }
    return connection;
  }

  const reportQueue: ReportQueue = {
    async enqueue(payload, dedupKey, dedupWindowMs = 10_000) {
      const added = await run.enqueue(
        [keys.queue, keys.enqueuedAt, keys.dedup(dedupKey ?? '')],
        [payload, Date.now(), dedupWindowMs, dedupKey === undefined ? '0' : '1'],
      );
      return added === 1;
    },
    async take(workerId, waitMs) {
      const connection = blockingConnection(workerId);
      const taken =
        waitMs > 0
          ? await connection.blmove(keys.queue, keys.processing(workerId), 'RIGHT', 'LEFT', waitMs / 1000)
          : await command.lmove(keys.queue, keys.processing(workerId), 'RIGHT', 'LEFT');
      if (taken === null) return undefined;
      await command.hdel(keys.enqueuedAt, taken);
      return taken;
    },
    async complete(workerId, payload) {
      await command.lrem(keys.processing(workerId), 1, payload);
    },
    async retryLater(workerId, payload, retryPayload, dueAtMs) {
      await run.retryLater([keys.processing(workerId), keys.retry], [payload, retryPayload, dueAtMs]);
    },
    async deadLetter(workerId, payload, entry) {
      await run.deadLetter([keys.processing(workerId), keys.failed], [payload, JSON.stringify(entry)]);
    },
    async promoteDueRetries(nowMs) {
      return Number(await run.promote([keys.queue, keys.retry, keys.enqueuedAt], [nowMs]));
    },
    async heartbeat(workerId, ttlMs) {
      await command.multi().set(keys.alive(workerId), '1', 'PX', ttlMs).sadd(keys.workers, workerId).exec();
    },
    async recoverAbandoned() {
      return Number(await run.recover([keys.workers, keys.queue, keys.enqueuedAt], [base, Date.now(), '']));
    },
    async retire(workerId) {
      await run.recover([keys.workers, keys.queue, keys.enqueuedAt], [base, Date.now(), workerId]);
    },
    async acquireLock(name, owner, ttlMs) {
      return (await command.set(keys.lock(name), owner, 'PX', ttlMs, 'NX')) === 'OK';
    },
    async extendLock(name, owner, ttlMs) {
      return Number(await run.extendLock([keys.lock(name)], [owner, ttlMs])) === 1;
    },
    async releaseLock(name, owner) {
      await run.releaseLock([keys.lock(name)], [owner]);
    },
    async stats(nowMs): Promise<QueueStats> {
      const [counts, stale] = await Promise.all([
        run.stats([keys.queue, keys.retry, keys.failed, keys.workers, keys.enqueuedAt], [base]),
        command.get(keys.staleRepublished),
      ]);
      const [queued, inFlight, retries, dead, at] = counts as [number, number, number, number, string | null];
      return {
        queued,
        inFlight,
        scheduledRetries: retries,
        deadLetters: dead,
        oldestAgeMs: at ? Math.max(0, nowMs - Number(at)) : null,
        staleRepublished: Number(stale ?? 0),
      };
    },
    async countStaleRepublished(count) {
      await command.incrby(keys.staleRepublished, count);
    },
    async heldMessages() {
      return (await run.held([keys.queue, keys.retry, keys.workers], [base])) as string[];
    },
    async claimDataMarker() {
      // No expiry: only losing the data makes it disappear.
      return (await command.set(keys.dataMarker, new Date().toISOString(), 'NX')) === 'OK';
    },
    async deadLetters(limit) {
      const entries = await command.lrange(keys.failed, 0, Math.max(0, limit - 1));
      return entries.flatMap((text) => {
        try {
          return [JSON.parse(text) as DeadLetterEntry];
        } catch {
          return [];
        }
      });
    },
    async replayDeadLetters() {
      return Number(await run.replay([keys.failed, keys.queue, keys.enqueuedAt], [Date.now()]));
    },
  };

  return {
    kind: 'redis',
    async publish(channel, message) {
      await command.publish(namespace + channel, JSON.stringify(message));
    },
    async subscribe(channel, handler) {
      const name = namespace + channel;
      const connection = subscriberConnection();
      const set = handlers.get(name) ?? new Set<MessageHandler>();
      handlers.set(name, set);
      set.add(handler as MessageHandler);
      if (set.size === 1) {
        // Redis down: the handler stays registered and the channel is subscribed once Redis
        // answers, so a process boots (and later resumes) without it.
        await connection.subscribe(name).catch(onError);
      }
      return async () => {
        set.delete(handler as MessageHandler);
        if (set.size === 0) {
          handlers.delete(name);
          await connection.unsubscribe(name).catch(onError);
        }
      };
    },
    async claimOnce(key, ttlMs) {
      return (await command.set(keys.claim(key), '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async ping() {
      // Known to be down (lost and reconnecting): say so at once rather than after the retries,
      // so the health check and the API's publish path answer quickly during an outage.
      if (DOWN_STATES.has(command.status)) throw new Error(`Redis is unavailable (${command.status})`);
      await command.ping();
    },
    reportQueue,
    async close() {
      // disconnect (not quit): a blocked BLMOVE or a dead server must not hold shutdown up.
      for (const connection of blocking.values()) connection.disconnect();
      subscriber?.disconnect();
      await command.quit().catch(() => command.disconnect());
    },
  };
}
