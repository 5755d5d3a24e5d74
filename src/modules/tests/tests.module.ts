import type { ModuleDeps } from '../module-deps.js';
import type { QuarantineEffects } from '../quarantine/report-effects.js';
import { createTestsRepository, type TestsRepository } from './tests.repository.js';
import { createTestsService, type TestsService } from './tests.service.js';
import { createWindowStatsRepository } from './window-stats.repository.js';
import { createTestPageReader } from './test-page.js';

export interface TestsModule {
  service: TestsService;
  repository: TestsRepository;
}

/** Every test of the uploads: per-test lists, a test's results, and what the verdict reads. */
export function createTestsModule(
  { config, db }: ModuleDeps,
  links: { quarantine?: QuarantineEffects } = {},
): TestsModule {
  const repository = createTestsRepository(db);
  const windows = createWindowStatsRepository(db);
  return {
    repository,
    service: createTestsService({
      repository,
      findSummary: (summaryId) => repository.findSummary(summaryId),
      appExists: (appId) => repository.appExists(appId),
      windows,
      pages: createTestPageReader(db),
      retentionDays: config.jobs.resultsRetentionDays,
      ...(links.quarantine ? { quarantinesOf: (appId: number) => links.quarantine!.testLookup(appId) } : {}),
    }),
  };
}
