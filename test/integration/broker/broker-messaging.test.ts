import { untyped } from '../../support/untyped-broker.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Broker, type BrokerLog, CHANNELS, reportKeys } from '../../../src/broker/broker.js';
import { acceptMessage } from '../../../src/broker/message-check.js';
import { closeBrokers, eventually, freshBroker, implementations, sleep } from './broker-support.js';

// The broker's names and its messaging (publish/subscribe, claims), on both implementations.

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
    ({ namespace, broker } = freshBroker(implementation));
  });
  afterEach(async () => closeBrokers(namespace, [broker, ...extra.splice(0)]));

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
});
