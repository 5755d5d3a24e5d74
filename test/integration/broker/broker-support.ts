import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import type { Broker, BrokerLog, DeadLetterEntry } from '../../../src/broker/broker.js';
import { createInProcessBroker } from '../../../src/broker/in-process-broker.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';

/** What the broker suites share: both implementations, a broker per test, and their clean-up. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function eventually<T>(
  read: () => Promise<T> | T,
  accept: (value: T) => boolean,
  timeoutMs = 3000,
) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < deadline) {
    await sleep(20);
    value = await read();
  }
  return value;
}

export interface Implementation {
  name: string;
  make(namespace: string, log?: BrokerLog): Broker;
}

export const implementations: Implementation[] = [
  { name: 'in-process', make: (namespace, log) => createInProcessBroker({ namespace, log }) },
  ...(redisAvailable
    ? [
        {
          name: 'redis',
          make: (namespace: string, log?: BrokerLog) =>
            createRedisBroker({ url: TEST_REDIS_URL, namespace, log }),
        },
      ]
    : []),
];

export const entry = (message: string): DeadLetterEntry => ({
  message,
  error: 'boom',
  errorStack: 'Error: boom\n    at test',
  retryCount: 3,
  date: '2025-03-01',
  timestamp: '2025-03-01T10:00:00.000Z',
});

/** A broker on a namespace of its own, so that no test sees another's keys or channels. */
export function freshBroker(implementation: Implementation) {
  const namespace = `test:${randomUUID()}:`;
  return { namespace, broker: implementation.make(namespace) };
}

/** Closes a test's brokers, then deletes what they left in Redis under its namespace. */
export async function closeBrokers(namespace: string, brokers: Broker[]) {
  for (const broker of brokers) await broker.close();
  if (redisAvailable) {
    const cleaner = new Redis(TEST_REDIS_URL);
    const leftovers = await cleaner.keys(`${namespace}*`);
    if (leftovers.length > 0) await cleaner.del(...leftovers);
    cleaner.disconnect();
  }
}
