import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Broker, BrokerLog } from '../../../src/broker/broker.js';
import { closeBrokers, entry, freshBroker, implementations, sleep } from './broker-support.js';

// The report queue's contract, on both implementations.

describe.each(implementations)('broker contract ($name)', (implementation) => {
  const make = (namespace: string, log?: BrokerLog) => implementation.make(namespace, log);
  let namespace: string;
  let broker: Broker;
  const extra: Broker[] = [];

  beforeEach(() => {
    ({ namespace, broker } = freshBroker(implementation));
  });
  afterEach(async () => closeBrokers(namespace, [broker, ...extra.splice(0)]));

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
