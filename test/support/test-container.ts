import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApiRole } from '../../src/roles/api.js';
import type { Broker } from '../../src/broker/broker.js';
import { createInProcessBroker } from '../../src/broker/in-process-broker.js';
import type { Config } from '../../src/config/config.js';
import { type Container, createContainer, createLogger } from '../../src/container.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createMetrics, type Metrics } from '../../src/http/plumbing/metrics.js';

export interface TestContainerOptions {
  database: DatabaseHandle;
  /** A fresh in-process broker (closed with the container) when absent. */
  broker?: Broker;
  /** The guard connection; none (in-memory guard stores) when absent. */
  redis?: Redis;
  /** The configured logger (LOG_LEVEL, silent in tests) when absent. */
  log?: FastifyBaseLogger;
  metrics?: Metrics;
  /** The real clock when absent. */
  clock?: () => number;
}

export interface TestContainer extends Container {
  /** Drains the container and closes the broker it created (never the database it was given). */
  close(): Promise<void>;
}

/** The production container over test infrastructure: the same modules, fakes behind them. */
export function createTestContainer(config: Config, options: TestContainerOptions): TestContainer {
  const broker = options.broker ?? createInProcessBroker();
  const container = createContainer({
    config,
    database: options.database,
    broker,
    redis: options.redis ?? null,
    log: options.log ?? createLogger(config),
    metrics: options.metrics ?? createMetrics(),
    clock: options.clock ?? Date.now,
  });
  return {
    ...container,
    async close() {
      await container.drain();
      if (!options.broker) await broker.close();
    },
  };
}

/** The API role's application over a test container; closing the app also closes what the container opened. */
export async function buildTestApp(config: Config, options: TestContainerOptions): Promise<FastifyInstance> {
  const container = createTestContainer(config, options);
  const app = await buildApiRole(container);
  app.addHook('onClose', async () => container.close());
  return app;
}

/**
 * An in-process broker that behaves as a broker whose server is unreachable: subscriptions are
 * kept, but publishing and pinging fail.
 */
export function brokerThatIsDown(): Broker {
  const broker = createInProcessBroker();
  const down = () => Promise.reject(new Error('The message broker does not answer'));
  return { ...broker, publish: down, ping: down };
}
