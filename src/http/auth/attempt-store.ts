import type { Redis } from 'ioredis';

export interface FailureOutcome {
  /** Failures from this IP inside the window, this one included. */
  failures: number;
  /** Epoch ms when the block this failure caused ends; undefined when it caused none. */
  blockedUntil?: number;
}

export interface AttemptPolicy {
  maxAttempts: number;
  windowMs: number;
  blockMs: number;
}

/**
 * Where failed authentication attempts and blocks live: process memory, or Redis when shared.
 * `blockedUntil` is asked on every request of a protected scope, so a store that knows the answer
 * at once (memory) returns it directly instead of through a promise.
 */
export interface AttemptStore {
  recordFailure(ip: string, now: number): Promise<FailureOutcome>;
  /** Failures from this IP inside the window, without recording one. */
  failures(ip: string, now: number): Promise<number>;
  blockedUntil(ip: string, now: number): number | undefined | Promise<number | undefined>;
  /** The same answer, present only on a store that always has it at once (memory). */
  readonly blockedUntilNow?: (ip: string, now: number) => number | undefined;
  /** Forgets the IP's failures (after a successful validation). */
  clear(ip: string): Promise<void>;
  close(): void;
}

interface MemoryRecord {
  failures: number[];
  blockedUntil: number;
}

export function createMemoryAttemptStore(policy: AttemptPolicy, sweepEveryMs = 60_000): AttemptStore {
  const records = new Map<string, MemoryRecord>();
  const prune = (record: MemoryRecord, now: number) => {
    record.failures = record.failures.filter((at) => at > now - policy.windowMs);
  };
  // Old attempt records are swept so a scan of many IPs cannot grow memory without bound.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [ip, record] of records) {
      prune(record, now);
      if (record.failures.length === 0 && record.blockedUntil <= now) records.delete(ip);
    }
  }, sweepEveryMs);
  sweeper.unref();

  const blockedUntil = (ip: string, now: number) => {
    const until = records.get(ip)?.blockedUntil ?? 0;
    return until > now ? until : undefined;
  };

  return {
    blockedUntil,
    blockedUntilNow: blockedUntil,
    recordFailure(ip, now) {
      const record = records.get(ip) ?? { failures: [], blockedUntil: 0 };
      records.set(ip, record);
      prune(record, now);
      record.failures.push(now);
      if (record.failures.length > policy.maxAttempts) {
        record.blockedUntil = now + policy.blockMs;
        return Promise.resolve({ failures: record.failures.length, blockedUntil: record.blockedUntil });
      }
      return Promise.resolve({ failures: record.failures.length });
    },
    failures(ip, now) {
      const record = records.get(ip);
      if (!record) return Promise.resolve(0);
      prune(record, now);
      return Promise.resolve(record.failures.length);
    },
    clear(ip) {
      const record = records.get(ip);
      if (record) record.failures = [];
      return Promise.resolve();
    },
    close() {
      clearInterval(sweeper);
    },
  };
}

// Atomic so that concurrent failures from one IP on several API instances count exactly.
const RECORD_FAILURE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], window)
local count = redis.call('ZCARD', KEYS[1])
if count > tonumber(ARGV[3]) then
  local untilMs = now + tonumber(ARGV[4])
  redis.call('SET', KEYS[2], untilMs, 'PX', ARGV[4])
  return {count, untilMs}
end
return {count, 0}
`;

/**
 * Failures and blocks shared through Redis. While Redis cannot be reached, each operation falls
 * back to this process's own memory instead of failing open: blocks keep happening, counted per
 * process (several API processes then each allow their own attempts). A block made in memory
 * during an outage still holds after Redis returns, until it expires.
 */
export function createRedisAttemptStore(redis: Redis, policy: AttemptPolicy, namespace = ''): AttemptStore {
  const shared = createSharedAttemptStore(redis, policy, namespace);
  const local = createMemoryAttemptStore(policy);
  // The guard connection refuses commands at once while disconnected, so the fallback costs no wait.
  const eitherStore = async <T>(operation: (store: AttemptStore) => T | Promise<T>): Promise<T> => {
    try {
      return await operation(shared);
    } catch {
      return operation(local);
    }
  };
  return {
    recordFailure: (ip, now) => eitherStore((store) => store.recordFailure(ip, now)),
    failures: (ip, now) => eitherStore((store) => store.failures(ip, now)),
    async blockedUntil(ip, now) {
      const blockedHere = local.blockedUntil(ip, now);
      return blockedHere ?? eitherStore((store) => store.blockedUntil(ip, now));
    },
    async clear(ip) {
      await local.clear(ip);
      await eitherStore((store) => store.clear(ip));
    },
    close() {
      local.close();
    },
  };
}

/** Keys under REDIS_NAMESPACE, like the broker's: two deployments on one Redis block apart. */
function createSharedAttemptStore(redis: Redis, policy: AttemptPolicy, namespace: string): AttemptStore {
  const failuresKey = (ip: string) => `${namespace}dashboard:auth:failures:${ip}`;
  const blockKey = (ip: string) => `${namespace}dashboard:auth:block:${ip}`;
  let sequence = 0;
  return {
    async recordFailure(ip, now) {
      // Unique member per failure: two failures in the same millisecond must both count.
      const member = `${now}-${process.pid}-${sequence++}-${Math.random().toString(36).slice(2, 8)}`;
      const [failures, until] = (await redis.eval(
        RECORD_FAILURE_SCRIPT,
        2,
        failuresKey(ip),
        blockKey(ip),
        now,
        policy.windowMs,
        policy.maxAttempts,
        policy.blockMs,
        member,
      )) as [number, number];
      return until > 0 ? { failures, blockedUntil: until } : { failures };
    },
    async failures(ip, now) {
      return redis.zcount(failuresKey(ip), `(${now - policy.windowMs}`, '+inf');
    },
    async blockedUntil(ip, now) {
      const value = await redis.get(blockKey(ip));
      const until = value === null ? 0 : Number(value);
      return until > now ? until : undefined;
    },
    async clear(ip) {
      await redis.del(failuresKey(ip));
    },
    close() {
      // The Redis connection is owned and closed by the application.
    },
  };
}
