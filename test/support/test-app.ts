import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { type Dialect, openTestDatabase } from './test-database.js';
import { buildTestApp } from './test-container.js';

export const TEST_KEY = 'test-key-0123456789abcdefghijklmnopqrstuv';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  /** Sends a request with the API key (JSON body when `payload` is an object). */
  api(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect?: Dialect;
  env?: Record<string, string>;
  redis?: Redis;
  /** Reuse an open database instead of creating one (several apps on one database). */
  database?: DatabaseHandle;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    API_SECURITY_KEY: TEST_KEY,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = options.database ?? (await openTestDatabase(options.dialect ?? 'sqlite'));
  const app = await buildTestApp(config, {
    database,
    ...(options.redis ? { redis: options.redis } : {}),
  });
  await app.ready();
  return {
    app,
    config,
    database,
    api: (request) =>
      app.inject({ ...request, headers: { 'x-api-key': TEST_KEY, ...(request.headers ?? {}) } }),
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}
