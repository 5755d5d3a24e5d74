import { buildApp } from '../src/app.js';
import { createInProcessBroker } from '../src/broker/in-process-broker.js';
import { loadConfig } from '../src/config/config.js';
import { createContainer, createLogger } from '../src/container.js';
import { openDatabase } from '../src/db/database.js';
import { createMetrics } from '../src/http/plumbing/metrics.js';

/**
 * The OpenAPI document as the code generates it: every route registers whatever the
 * configuration, so the document does not depend on the environment it is generated in.
 */
export async function generateOpenApiDocument(): Promise<string> {
  const config = loadConfig({
    API_SECURITY_KEY: 'openapi-generation-key-000000000000000',
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
  });
  const database = openDatabase(config.database);
  const broker = createInProcessBroker();
  const app = await buildApp(
    createContainer({
      config,
      database,
      broker,
      redis: null,
      log: createLogger(config),
      metrics: createMetrics(),
      clock: Date.now,
    }),
  );
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await broker.close();
    await database.close();
  }
}
