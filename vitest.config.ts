import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Vitest's default exclude skips any folder named `cypress`, which would hide the tests of
// src/integrations/cypress; only dependencies and build output are excluded here.
const EXCLUDE = ['**/node_modules/**', '**/dist/**'];

/**
 * The tiers are folders (docs/testing.md):
 * - unit: tests beside the code (`src/`, `web/src/`) and `test/unit/`. No server at all: SQLite
 *   in memory or in a temporary file, fakes on 127.0.0.1, no PostgreSQL, Redis, Chromium or
 *   spawned service processes (`test/unit/tiers.test.ts` checks the imports).
 * - integration: `test/integration/`, suites that need PostgreSQL or Redis (both-dialect suites
 *   included), several processes, or long generated inputs.
 * - browser: `test/browser/`, Chromium against the built web UI (`npm run build:web` first).
 * `npm test` (`vitest run`) runs all three; `npm run test:<tier>` one.
 */
const TIERS = {
  unit: ['src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'test/unit/**/*.test.ts'],
  integration: ['test/integration/**/*.test.ts'],
  browser: ['test/browser/**/*.test.ts'],
};

/**
 * Test files at once: one more than the cores. Vitest's default in a run is cores − 1, which on
 * the 2-core CI machine ran every file one after another (1162 s of tests). Serially the suites
 * kept about 40–50 % of a core busy (they wait on timers, sockets, child processes, Chromium), so
 * three files at once fill two cores without starving the timing-bound ones; four at once on a
 * loaded machine made 30 of them time out (docs/testing.md). Each file keeps its own process, as
 * some suites change process-wide state (fake timers, environment). `--maxWorkers=N` overrides.
 */
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: WORKERS,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: Object.entries(TIERS).map(([name, include]) => ({
      extends: true,
      test: { name, include, exclude: EXCLUDE },
    })),
  },
});
