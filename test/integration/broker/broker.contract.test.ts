import { randomUUID } from 'node:crypto';
import { untyped } from '../../support/untyped-broker.js';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import {
  type Broker,
  type BrokerLog,
  CHANNELS,
  type DeadLetterEntry,
  reportKeys,
} from '../../../src/broker/broker.js';
import { createInProcessBroker } from '../../../src/broker/in-process-broker.js';
import { acceptMessage } from '../../../src/broker/message-check.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(read: () => Promise<T> | T, accept: (value: T) => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < deadline) {
    await sleep(20);
    value = await read();
  }
  return value;
}

interface Implementation {
  name: string;
  make(namespace: string, log?: BrokerLog): Broker;
}

const implementations: Implementation[] = [
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

const entry = (message: string): DeadLetterEntry => ({
  message,
  error: 'boom',
  errorStack: 'Error: boom\n    at test',
  retryCount: 3,
  date: '2025-03-01',
  timestamp: '2025-03-01T10:00:00.000Z',
});

describe('reportKeys', () => {
  it('uses the exact names of the spec when the namespace is empty', () => {
    const keys = reportKeys();
    expect(keys.channel).toBe('e2e:report:generate');
    expect(keys.queue).toBe('e2e:report:queue');
    expect(keys.retry).toBe('e2e:report:retry');
    expect(keys.failed).toBe('e2e:report:failed');
  });

  it('prefixes every key and channel with the namespace', () => {
    const keys = reportKeys('t1:');
    expect(keys.channel).toBe('t1:e2e:report:generate');
    expect(keys.queue).toBe('t1:e2e:report:queue');
    expect(keys.processing('w')).toBe('t1:e2e:report:processing:w');
  });
});

describe('the channel catalogue', () => {
  it('has a schema the broker can check for every channel but the report requests', () => {
    for (const channel of Object.values(CHANNELS)) {
      // Report requests all reach the worker, which dead-letters those it cannot read.
      expect(acceptMessage(channel, {}, undefined)).toBe(channel === CHANNELS.reportGenerate);
    }
  });
});

describe.each(implementations)('broker contract ($name)', (implementation) => {
  const make = (namespace: string, log?: BrokerLog) => implementation.make(namespace, log);
  let namespace: string;
  let broker: Broker;
  const extra: Broker[] = [];

  beforeEach(() => {
    namespace = `test:${randomUUID()}:`;
    broker = make(namespace);
  });
  afterEach(async () => {
    await broker.close();
    for (const other of extra.splice(0)) await other.close();
    if (redisAvailable) {
      const cleaner = new Redis(TEST_REDIS_URL);
      const leftovers = await cleaner.keys(`${namespace}*`);
      if (leftovers.length > 0) await cleaner.del(...leftovers);
      cleaner.disconnect();
    }
  });

  describe('publish/subscribe', () => {
    it('delivers a JSON copy of each message to every subscriber until it unsubscribes', async () => {
      const first: unknown[] = [];
      const second: unknown[] = [];
      const stopFirst = await untyped(broker).subscribe('chan', (message) => void first.push(message));
      await untyped(broker).subscribe('chan', (message) => void second.push(message));
      const message = { date: '2025-03-01', nested: { a: [1, 2] } };
      await untyped(broker).publish('chan', message);
      await eventually(
        () => second.length,
        (n) => n === 1,
      );
      expect(first).toEqual([message]);
      expect(second).toEqual([message]);
      expect(first[0]).not.toBe(message);

      await stopFirst();
      await untyped(broker).publish('chan', { n: 2 });
      await eventually(
        () => second.length,
        (n) => n === 2,
      );
      await sleep(50);
      expect(first).toHaveLength(1);
    });

    it('keeps channels of different namespaces apart', async () => {
      const other = make(`${namespace}other:`);
      extra.push(other);
      const seen: unknown[] = [];
      await untyped(other).subscribe('chan', (message) => void seen.push(message));
      const own: unknown[] = [];
      await untyped(broker).subscribe('chan', (message) => void own.push(message));
      await untyped(broker).publish('chan', { x: 1 });
      await eventually(
        () => own.length,
        (n) => n === 1,
      );
      await sleep(50);
      expect(seen).toEqual([]);
    });

    it('survives a handler that throws', async () => {
      const seen: unknown[] = [];
      await untyped(broker).subscribe('chan', () => {
        throw new Error('handler failure');
      });
      await untyped(broker).subscribe('chan', (message) => void seen.push(message));
      await untyped(broker).publish('chan', 1);
      await untyped(broker).publish('chan', 2);
      expect(
        await eventually(
          () => seen.length,
          (n) => n === 2,
        ),
      ).toBe(2);
    });
  });

  describe('messages of the catalogue', () => {
    it('hands a handler only messages that fit the channel, and logs each one dropped', async () => {
      const warnings: object[] = [];
      const checked = make(namespace, { warn: (object) => void warnings.push(object) });
      extra.push(checked);
      const seen: object[] = [];
      await checked.subscribe(CHANNELS.notificationCreate, (message) => void seen.push(message));
      // What anyone with access to Redis could publish: no message, a number, text, an extra NUL.
      await untyped(checked).publish(CHANNELS.notificationCreate, { title: 't', type: 'info' });
      await untyped(checked).publish(CHANNELS.notificationCreate, { title: 1, message: 'm', type: 'info' });
      await untyped(checked).publish(CHANNELS.notificationCreate, 'not an object');
      await untyped(checked).publish(CHANNELS.notificationCreate, {
        title: 'a\u0000b',
        message: 'm',
        type: 'info',
      });
      // Fields a newer publisher adds are kept, so processes of different versions interoperate.
      await checked.publish(CHANNELS.notificationCreate, { title: 'ok', message: 'm', type: 'info' });
      await untyped(checked).publish(CHANNELS.notificationCreate, {
        title: 'later',
        message: 'm',
        type: 'system',
        addedLater: true,
      });
      await eventually(
        () => seen.length + warnings.length,
        (n) => n === 6,
      );
      expect(seen).toEqual([
        { title: 'ok', message: 'm', type: 'info' },
        { title: 'later', message: 'm', type: 'system', addedLater: true },
      ]);
      expect(warnings).toHaveLength(4);
      expect(warnings[0]).toMatchObject({ channel: CHANNELS.notificationCreate });
    });

    it('hands the report worker every report request, readable or not (it dead-letters the others)', async () => {
      const warnings: object[] = [];
      const checked = make(namespace, { warn: (object) => void warnings.push(object) });
      extra.push(checked);
      const seen: unknown[] = [];
      await checked.subscribe(CHANNELS.reportGenerate, (message) => void seen.push(message));
      await untyped(checked).publish(CHANNELS.reportGenerate, { requestId: 'no-date' });
      await checked.publish(CHANNELS.reportGenerate, { date: '2025-03-02', requestId: 'ok' });
      await eventually(
        () => seen.length,
        (n) => n === 2,
      );
      expect(seen).toEqual([{ requestId: 'no-date' }, { date: '2025-03-02', requestId: 'ok' }]);
      expect(warnings).toHaveLength(0);
    });

    it('checks a message once, whatever the number of handlers', async () => {
      const warnings: object[] = [];
      const checked = make(namespace, { warn: (object) => void warnings.push(object) });
      extra.push(checked);
      const seen: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        await checked.subscribe(CHANNELS.cacheInvalidate, (message) => void seen.push(message));
      }
      await untyped(checked).publish(CHANNELS.cacheInvalidate, { origin: 'x', tables: [1] });
      await checked.publish(CHANNELS.cacheInvalidate, { origin: 'x', tables: ['apps'] });
      await eventually(
        () => seen.length,
        (n) => n === 3,
      );
      expect(warnings).toHaveLength(1);
    });
  });

  it('claimOnce answers true to exactly one caller per key until the time passes', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => broker.claimOnce('k', 200)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await broker.claimOnce('other', 200)).toBe(true);
    await sleep(260);
    expect(await broker.claimOnce('k', 200)).toBe(true);
  });

  it('ping answers', async () => {
    await expect(Promise.resolve().then(() => broker.ping())).resolves.toBeUndefined();
  });

  describe('report queue', () => {
    it('de-duplicates on the key within the window and keeps FIFO order', async () => {
      const queue = broker.reportQueue;
      expect(await queue.enqueue('a', 'req-1')).toBe(true);
      expect(await queue.enqueue('a', 'req-1')).toBe(false);
      expect(await queue.enqueue('b')).toBe(true);
      expect(await queue.enqueue('b')).toBe(true);
      expect(await queue.enqueue('c', 'req-2', 100)).toBe(true);
      await sleep(150);
      expect(await queue.enqueue('c', 'req-2', 100)).toBe(true);
      const taken = [];
      for (let i = 0; i < 6; i += 1) taken.push(await queue.take('w1', 0));
      expect(taken).toEqual(['a', 'b', 'b', 'c', 'c', undefined]);
    });

    it('take waits for a message and gives up after the wait', async () => {
      const queue = broker.reportQueue;
      const started = Date.now();
      expect(await queue.take('w1', 200)).toBeUndefined();
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      const waiting = queue.take('w1', 2000);
      await sleep(50);
      await queue.enqueue('late');
      expect(await waiting).toBe('late');
    });

    it('hands each message to exactly one of several competing workers', async () => {
      const queue = broker.reportQueue;
      const messages = Array.from({ length: 30 }, (_, i) => `m${i}`);
      for (const message of messages) await queue.enqueue(message);
      const received: string[] = [];
      await Promise.all(
        ['w1', 'w2', 'w3'].map(async (worker) => {
          for (;;) {
            const message = await queue.take(worker, 100);
            if (message === undefined) return;
            received.push(message);
            await queue.complete(worker, message);
          }
        }),
      );
      expect(received.sort()).toEqual([...messages].sort());
    });

    it('keeps a taken message in flight until completed', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      await queue.enqueue('x');
      await queue.take('w1', 0);
      expect(await queue.stats(Date.now())).toMatchObject({ queued: 0, inFlight: 1 });
      await queue.complete('w1', 'x');
      expect(await queue.stats(Date.now())).toMatchObject({ queued: 0, inFlight: 0 });
    });

    it('moves a failed message to the retry set and back to the queue when due', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      await queue.enqueue('x');
      await queue.take('w1', 0);
      const due = Date.now() + 5000;
      await queue.retryLater('w1', 'x', 'x-retry-1', due);
      expect(await queue.stats(Date.now())).toMatchObject({ inFlight: 0, scheduledRetries: 1, queued: 0 });
      expect(await queue.promoteDueRetries(due - 1)).toBe(0);
      expect(await queue.promoteDueRetries(due)).toBe(1);
      expect(await queue.stats(Date.now())).toMatchObject({ scheduledRetries: 0, queued: 1 });
      expect(await queue.take('w1', 0)).toBe('x-retry-1');
    });

    it('moves only messages still in flight (a recovered one is not retried or dead-lettered twice)', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      await queue.enqueue('x');
      await queue.take('w1', 0);
      await queue.complete('w1', 'x');
      await queue.retryLater('w1', 'x', 'x-retry', Date.now());
      await queue.deadLetter('w1', 'x', entry('x'));
      expect(await queue.stats(Date.now())).toMatchObject({ scheduledRetries: 0, deadLetters: 0, queued: 0 });
    });

    it('dead-letters a message and replays every dead letter', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      await queue.enqueue('first');
      await queue.enqueue('second');
      for (const payload of ['first', 'second']) {
        await queue.take('w1', 0);
        await queue.deadLetter('w1', payload, entry(payload));
      }
      expect(await queue.stats(Date.now())).toMatchObject({ inFlight: 0, deadLetters: 2, queued: 0 });
      const letters = await queue.deadLetters(10);
      expect(letters.map((letter) => letter.message)).toEqual(['second', 'first']);
      expect(letters[0]).toEqual(entry('second'));
      expect(await queue.replayDeadLetters()).toBe(2);
      expect(await queue.stats(Date.now())).toMatchObject({ deadLetters: 0, queued: 2 });
      expect(await queue.take('w1', 0)).toBe('first');
      expect(await queue.take('w1', 0)).toBe('second');
      expect(await queue.replayDeadLetters()).toBe(0);
    });

    it('re-queues the in-flight messages of a worker whose heartbeat expired, not of a live one', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('dead', 100);
      await queue.heartbeat('live', 10_000);
      await queue.enqueue('d');
      await queue.enqueue('l');
      expect(await queue.take('dead', 0)).toBe('d');
      expect(await queue.take('live', 0)).toBe('l');
      expect(await queue.recoverAbandoned()).toBe(0);
      await sleep(200);
      expect(await queue.recoverAbandoned()).toBe(1);
      expect(await queue.stats(Date.now())).toMatchObject({ queued: 1, inFlight: 1 });
      expect(await queue.take('other', 0)).toBe('d');
    });

    it('retire re-queues what a leaving worker still holds', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      await queue.enqueue('held');
      await queue.take('w1', 0);
      await queue.retire('w1');
      expect(await queue.stats(Date.now())).toMatchObject({ queued: 1, inFlight: 0 });
    });

    it('locks a name for one owner at a time', async () => {
      const queue = broker.reportQueue;
      expect(await queue.acquireLock('2025-03-01', 'a', 10_000)).toBe(true);
      expect(await queue.acquireLock('2025-03-01', 'b', 10_000)).toBe(false);
      expect(await queue.acquireLock('2025-03-02', 'b', 10_000)).toBe(true);
      expect(await queue.extendLock('2025-03-01', 'b', 10_000)).toBe(false);
      expect(await queue.extendLock('2025-03-01', 'a', 10_000)).toBe(true);
      await queue.releaseLock('2025-03-01', 'b');
      expect(await queue.acquireLock('2025-03-01', 'b', 10_000)).toBe(false);
      await queue.releaseLock('2025-03-01', 'a');
      expect(await queue.acquireLock('2025-03-01', 'b', 100)).toBe(true);
      await sleep(150);
      expect(await queue.acquireLock('2025-03-01', 'c', 100)).toBe(true);
    });

    it('reports the age of the oldest waiting message', async () => {
      const queue = broker.reportQueue;
      expect((await queue.stats(Date.now())).oldestAgeMs).toBeNull();
      const before = Date.now();
      await queue.enqueue('old');
      await sleep(60);
      await queue.enqueue('new');
      const age = (await queue.stats(Date.now())).oldestAgeMs;
      expect(age).toBeGreaterThanOrEqual(50);
      expect(age).toBeLessThanOrEqual(Date.now() - before + 5);
    });

    it('adds up the stale pending reports republished', async () => {
      const queue = broker.reportQueue;
      expect((await queue.stats(Date.now())).staleRepublished).toBe(0);
      await queue.countStaleRepublished(3);
      await queue.countStaleRepublished(2);
      expect((await queue.stats(Date.now())).staleRepublished).toBe(5);
    });

    it('lists the messages held waiting, in flight and for a retry, not the dead letters', async () => {
      const queue = broker.reportQueue;
      await queue.heartbeat('w1', 10_000);
      for (const payload of ['to-retry', 'in-flight', 'to-dead-letter', 'waiting'])
        await queue.enqueue(payload);
      expect(await queue.take('w1', 0)).toBe('to-retry');
      await queue.retryLater('w1', 'to-retry', 'retry-1', Date.now() + 60_000);
      expect(await queue.take('w1', 0)).toBe('in-flight');
      expect(await queue.take('w1', 0)).toBe('to-dead-letter');
      await queue.deadLetter('w1', 'to-dead-letter', entry('to-dead-letter'));
      expect((await queue.heldMessages()).sort()).toEqual(['in-flight', 'retry-1', 'waiting']);
    });

    it('finds its data marker missing once, then kept', async () => {
      const queue = broker.reportQueue;
      expect(await queue.claimDataMarker()).toBe(true);
      expect(await queue.claimDataMarker()).toBe(false);
      // Another process on the same Redis finds it; another in-process broker is another memory.
      const other = make(namespace);
      extra.push(other);
      expect(await other.reportQueue.claimDataMarker()).toBe(implementation.name === 'in-process');
    });
  });
});

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
