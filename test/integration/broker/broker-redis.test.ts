import { randomUUID } from 'node:crypto';
import { untyped } from '../../support/untyped-broker.js';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';
import { entry } from './broker-support.js';

// What only the Redis broker promises: the spec's key and channel names, and failing fast.

describe.runIf(redisAvailable)('redis broker specifics', () => {
  const namespace = `test:${randomUUID()}:`;
  const inspector = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    const leftovers = await inspector.keys(`${namespace}*`);
    if (leftovers.length > 0) await inspector.del(...leftovers);
    inspector.disconnect();
  });

  it('stores the queue, retry set and dead letters under the namespaced spec names', async () => {
    const broker = createRedisBroker({ url: TEST_REDIS_URL, namespace });
    try {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      await queue.enqueue('{"date":"2025-03-01"}');
      await queue.enqueue('{"date":"2025-03-02"}');
      expect(await inspector.type(`${namespace}e2e:report:queue`)).toBe('list');
      await queue.take('w1', 0);
      await queue.retryLater('w1', '{"date":"2025-03-01"}', '{"date":"2025-03-01","retryCount":1}', 42);
      expect(
        await inspector.zscore(`${namespace}e2e:report:retry`, '{"date":"2025-03-01","retryCount":1}'),
      ).toBe('42');
      await queue.take('w1', 0);
      await queue.deadLetter('w1', '{"date":"2025-03-02"}', entry('{"date":"2025-03-02"}'));
      const [stored] = await inspector.lrange(`${namespace}e2e:report:failed`, 0, -1);
      expect(JSON.parse(stored!)).toEqual(entry('{"date":"2025-03-02"}'));
    } finally {
      await broker.close();
    }
  });

  it('publishes on the namespaced spec channel', async () => {
    const listener = inspector.duplicate();
    const received = new Promise<[string, string]>((resolve) =>
      listener.on('message', (channel: string, text: string) => resolve([channel, text])),
    );
    await listener.subscribe(`${namespace}e2e:report:generate`);
    const broker = createRedisBroker({ url: TEST_REDIS_URL, namespace });
    try {
      await broker.publish('e2e:report:generate', { date: '2025-03-01', requestId: 'r1' });
      const [channel, text] = await received;
      expect(channel).toBe(`${namespace}e2e:report:generate`);
      expect(JSON.parse(text)).toEqual({ date: '2025-03-01', requestId: 'r1' });
    } finally {
      listener.disconnect();
      await broker.close();
    }
  });

  it('rejects a publish after the retry policy when Redis does not answer', async () => {
    const broker = createRedisBroker({ url: 'redis://127.0.0.1:1', namespace, onError: () => undefined });
    const started = Date.now();
    await expect(untyped(broker).publish('chan', {})).rejects.toThrow();
    await expect(broker.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    await broker.close();
  });
});
