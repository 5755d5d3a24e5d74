import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Broker } from '../../../src/broker/broker.js';
import { createBroker } from '../../../src/broker/create-broker.js';
import { type DatabaseHandle, openDatabase } from '../../../src/db/database.js';
import { shareWrites } from '../../../src/http/caching/cache-invalidation.js';
import { openTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/services.js';
import { call } from '../../support/cache-support.js';

interface ApiProcess {
  server: LiveServer;
  database: DatabaseHandle;
  broker: Broker;
  stopSharing: () => void;
}

/**
 * Two API "processes": each has its own database connection, its own Redis broker connections
 * and its own cache, exactly as two `serve --roles api` processes would; they share only the
 * database and Redis. The cache TTL is ten minutes, so only the broker message can explain
 * a fresh answer within the test's bound.
 */
describe.runIf(redisAvailable)('response cache across processes (Redis)', () => {
  const namespace = `cache-test:${randomUUID()}:`;
  let shared: DatabaseHandle & { testDb: TestDatabase };
  let writer: ApiProcess;
  let reader: ApiProcess;

  async function startProcess(): Promise<ApiProcess> {
    const database = openDatabase(shared.testDb.config);
    const broker = createBroker({ redisUrl: TEST_REDIS_URL, namespace });
    const stopSharing = shareWrites(database.writes, broker);
    const server = await startLiveServer({
      env: { RESPONSE_CACHE_TTL_MS: '600000' },
      deps: { database, broker },
    });
    return { server, database, broker, stopSharing };
  }
  async function stop(process: ApiProcess): Promise<void> {
    await process.server.close();
    process.stopSharing();
    await process.broker.close();
    await process.database.close();
  }

  beforeAll(async () => {
    shared = await openTestDatabase('sqlite');
    writer = await startProcess();
    reader = await startProcess();
  });
  afterAll(async () => {
    await stop(writer);
    await stop(reader);
    await shared.close();
  });

  it('shows a write acknowledged by one process on the other within milliseconds', async () => {
    const titles = async () =>
      ((await call(reader.server.baseUrl, '/api/to_do_list?limit=100')).body.data as { title: string }[]).map(
        (item) => item.title,
      );
    await titles();
    // Control: a write no process announces stays invisible to the reader's cache.
    const silent = openDatabase(shared.testDb.config);
    await silent.db
      .insertInto('todos')
      .values({
        title: 'Unannounced',
        is_completed: 0,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await silent.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await titles()).not.toContain('Unannounced');

    const windows: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const cachedBefore = await titles();
      expect(cachedBefore).not.toContain(`Remote ${i}`);
      const created = await call(writer.server.baseUrl, '/api/to_do_list', {
        method: 'POST',
        body: { title: `Remote ${i}` },
      });
      expect(created.status).toBe(201);
      const acknowledged = performance.now();
      while (!(await titles()).includes(`Remote ${i}`)) {
        expect(performance.now() - acknowledged).toBeLessThan(1000);
      }
      windows.push(performance.now() - acknowledged);
    }
    expect(Math.max(...windows)).toBeLessThan(1000);
    expect(await titles()).toContain('Unannounced');
    if (process.env.CACHE_WINDOW_REPORT)
      process.stderr.write(`cross-process windows (ms): ${windows.map((w) => w.toFixed(1)).join(' ')}\n`);
  });
});
