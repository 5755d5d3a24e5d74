import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

// ioredis is loaded when the first connection is made: a process without REDIS_URL never needs it.
const require = createRequire(import.meta.url);
let RedisClient: typeof Redis | undefined;

/**
 * Broker connection policy of the spec: each command is retried at most 3 times, 50 ms × attempt
 * apart (capped at 2 s); the connection itself keeps reconnecting in the background forever.
 */
export const BROKER_RETRY_POLICY = {
  maxRetriesPerRequest: 3,
  retryDelayMs: (attempt: number) => Math.min(attempt * 50, 2000),
} as const;

export function createRedisConnection(url: string, options: RedisOptions = {}): Redis {
  RedisClient ??= (require('ioredis') as typeof import('ioredis')).Redis;
  return new RedisClient(url, {
    maxRetriesPerRequest: BROKER_RETRY_POLICY.maxRetriesPerRequest,
    retryStrategy: BROKER_RETRY_POLICY.retryDelayMs,
    enableReadyCheck: true,
    lazyConnect: false,
    ...options,
  });
}

/**
 * The connection behind the per-request guards (brute-force blocks, rate limits, scheduler tick
 * locks). Commands fail at once while Redis is unreachable instead of queueing until it returns,
 * so every /api request does not wait out the retries: the guards then fail open and the API
 * keeps answering at full speed.
 */
export function createGuardRedisConnection(url: string): Redis {
  return createRedisConnection(url, { enableOfflineQueue: false });
}
