/**
 * Where the PostgreSQL and Redis of the tests answer. Reading them probes nothing, so the unit
 * tier can import helpers that name them; `services.ts` probes.
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
