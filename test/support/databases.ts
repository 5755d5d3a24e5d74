import type { Dialect } from './test-database.js';
import { postgresAvailable } from './services.js';

export * from './test-database.js';

/** The dialects every repository and API suite runs against (integration tier: probes the servers). */
export const DIALECTS: readonly Dialect[] = postgresAvailable ? ['sqlite', 'postgres'] : ['sqlite'];
