import { afterAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src/broker/broker.js';
import { createRedisBroker } from '../../../src/broker/redis-broker.js';
import { reportCommand } from '../../../src/cli/report-command.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { testConfig } from '../../support/test-app.js';
import { eventually, specRow, startReportHarness } from '../../support/report-harness.js';
import { uniqueNamespace } from './processes.js';

const capture = () => {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    lines,
    io: { out: (t: string) => void lines.out.push(t), err: (t: string) => void lines.err.push(t) },
  };
};

describe('dashboard report <date>', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('refuses a date that is not a real calendar date', async () => {
    const { lines, io } = capture();
    expect(await reportCommand(['2025-02-30'], testConfig(), io)).toBe(64);
    expect(await reportCommand(['2025-02-01', 'extra'], testConfig(), io)).toBe(64);
    expect(lines.err[0]).toContain('Usage');
  });

  it.runIf(redisAvailable)(
    'publishes {date, requestId} on e2e:report:generate and queues it (REDIS_URL)',
    async () => {
      const namespace = uniqueNamespace('cli');
      const listener = createRedisBroker({ url: TEST_REDIS_URL, namespace });
      cleanups.push(() => listener.close());
      const received: unknown[] = [];
      await listener.subscribe(CHANNELS.reportGenerate, (message) => void received.push(message));
      const { lines, io } = capture();
      const config = testConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_NAMESPACE: namespace });
      expect(await reportCommand(['2025-03-01'], config, io)).toBe(0);
      await eventually(
        async () => received.length,
        (n) => n === 1,
      );
      expect(received[0]).toEqual({ date: '2025-03-01', requestId: expect.any(String) });
      expect(lines.out[0]).toContain('2025-03-01');
      const taken = await listener.reportQueue.take('cli-test', 0);
      expect(JSON.parse(taken!)).toEqual(received[0]);
      await listener.reportQueue.complete('cli-test', taken!);
    },
  );

  it('goes through the API of the running server without REDIS_URL (embedded broker)', async () => {
    const h = await startReportHarness();
    cleanups.push(() => h.close());
    await h.createApp('web');
    h.fake.rows = [specRow('web', 1)];
    const address = await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { io } = capture();
    expect(await reportCommand(['2025-03-15'], testConfig({ API_BASE_URL: address }), io)).toBe(0);
    const ready = await h.waitForReport('2025-03-15');
    expect(ready.json().summary).toMatchObject({ status: 'ready', totalRuns: 1 });
    const down = capture();
    expect(
      await reportCommand(['2025-03-15'], testConfig({ API_BASE_URL: 'http://127.0.0.1:1' }), down.io),
    ).toBe(69);
  });
});
