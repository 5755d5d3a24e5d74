import { defineConfig } from 'vitest/config';

// Vitest's default exclude skips any folder named `cypress`, which would hide the tests of
// src/integrations/cypress; only dependencies and build output are excluded here.
const EXCLUDE = ['**/node_modules/**', '**/dist/**'];

/**
 * Suites that need the outside world: PostgreSQL or Redis as servers (outages included), several
 * processes, or long generated inputs (fuzz). `npm run test:integration`.
 */
const INTEGRATION = [
  'test/integration/**/*.test.ts',
  'test/scale-out/**/*.test.ts',
  'test/reports/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
  'test/status/**/*.test.ts',
  'test/reliability/**/*.test.ts',
  'test/caching/cross-process.test.ts',
  'test/foundation/database-outage.test.ts',
  'test/foundation/persistence.test.ts',
  'test/foundation/lazy-loading.test.ts',
  'src/broker/broker.contract.test.ts',
];

/** Chromium against the built web UI (`npm run build:web` first). `npm run test:browser`. */
const BROWSER = ['test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // `npm test` (`vitest run`) runs all three; each script below names one.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: [...EXCLUDE, ...INTEGRATION, ...BROWSER],
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: EXCLUDE } },
      { extends: true, test: { name: 'browser', include: BROWSER, exclude: EXCLUDE } },
    ],
  },
});
