import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { type Dialect, openTestDatabase } from './test-database.js';
import { buildApiRole } from '../../src/roles/api.js';
import { createTestContainer, type TestContainer, type TestContainerOptions } from './test-container.js';
import { TEST_KEY, testConfig } from './test-app.js';
import { DashboardClient } from '../../src/client/dashboard-client.js';
import type { TransportOptions } from '../../src/client/transport.js';

export interface LiveServer {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  /** The services behind the server (its poller, its report worker's parts). */
  container: TestContainer;
  baseUrl: string;
  client: DashboardClient;
  /** A client with other options (retries, time-outs) against the same server. */
  clientWith(options: Partial<TransportOptions>): DashboardClient;
  close(): Promise<void>;
}

/** The real application listening on 127.0.0.1 (random port), for tests that go over HTTP. */
export async function startLiveServer(
  options: { dialect?: Dialect; env?: Record<string, string>; deps?: Partial<TestContainerOptions> } = {},
): Promise<LiveServer> {
  const config = testConfig(options.env);
  const database = options.deps?.database ?? (await openTestDatabase(options.dialect ?? 'sqlite'));
  const container = createTestContainer(config, { ...options.deps, database });
  const app = await buildApiRole(container);
  app.addHook('onClose', async () => container.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const clientWith = (extra: Partial<TransportOptions>) =>
    new DashboardClient({ baseUrl, apiKey: TEST_KEY, retryBaseDelayMs: 10, ...extra });
  return {
    app,
    config,
    database,
    container,
    baseUrl,
    client: clientWith({}),
    clientWith,
    async close() {
      await app.close();
      if (!options.deps?.database) await database.close();
    },
  };
}
