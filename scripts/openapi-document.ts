import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';

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
  const app = await buildApp(config, { database, logger: false });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await database.close();
  }
}
