import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../../support/databases.js';
import type { DatabaseHandle } from '../../../../src/db/database.js';
import type { Aggregate } from '../../../../src/modules/reports/aggregation.js';
import type { AppReport } from '../../../../src/modules/reports/app-figures.js';
import { createReportsRepository } from '../../../../src/modules/reports/reports.repository.js';
import type { SpecStat } from '../../../../src/modules/reports/spec-aggregation.js';

const NOW = '2025-03-15T09:00:00.000Z';

const specsOf = (app: string, count: number): SpecStat[] =>
  Array.from({ length: count }, (_, i) => ({
    spec: `cypress/e2e/${app}/spec-${i}.cy.ts`,
    totalRuns: 10 + i,
    failedRuns: i % 3,
    flakyRuns: i % 2,
    successRate: 0.5,
    lastStatus: i % 3 === 0 ? 'failed' : 'passed',
    lastRunNumber: 100 + i,
    lastRunAt: NOW,
    lastFailedAt: i % 3 === 0 ? NOW : null,
    failingSince: i % 3 === 0 ? NOW : null,
    avgDurationMs: i === 0 ? null : 1000 + i,
    lastFailureAuthor: i % 3 === 0 ? `dev-${i}` : null,
    history: [],
    lastRunUrl: null,
    lastFailedRunNumber: null,
    lastFailedRunUrl: null,
    firstFailedCommitSha: null,
    lastPassedCommitSha: null,
    lastError: null,
  }));

const detailOf = (appId: number, specs: SpecStat[]): AppReport => ({
  appId,
  totalRuns: 1,
  passedRuns: 1,
  failedRuns: 0,
  flakyRuns: 0,
  successRate: 1,
  lastRunStatus: 'passed',
  lastRunNumber: 1,
  lastRunAt: NOW,
  lastFailedRunAt: null,
  day: { totalRuns: 1, passedRuns: 1, failedRuns: 0 },
  lastFailureAuthor: null,
  failingSpecs: [],
  specs,
});

// The spec rows of all the details of a report are inserted in statements of 500 rows filled
// across details: a statement ends inside a detail's specs and the next detail starts mid-way.
describe.each(DIALECTS)('stored spec statistics (%s)', (dialect) => {
  let database: DatabaseHandle;
  const appIds: number[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    for (const name of ['a', 'b', 'c', 'd']) {
      const app = await database.db
        .insertInto('apps')
        .values({
          name,
          code: name,
          pipeline_url: 'https://ci/x',
          watching: 1,
          created_at: NOW,
          updated_at: NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      appIds.push(app.id);
    }
  });
  afterAll(async () => database.close());

  it('keeps every spec of every detail, in its position, across statement boundaries', async () => {
    const repository = createReportsRepository(database.db);
    const counts = [300, 450, 0, 1];
    const specs = counts.map((count, i) => specsOf(`app-${i}`, count));
    const aggregate: Aggregate = {
      totals: { totalRuns: 4, passedRuns: 4, failedRuns: 0, successRate: 1 },
      details: appIds.map((appId, i) => detailOf(appId, specs[i]!)),
      appsWithoutRuns: [],
    };
    for (const round of [1, 2]) {
      const summary = await repository.saveReport('2025-03-15', aggregate);
      for (const [i, appId] of appIds.entries()) {
        const { rows, total } = await repository.specs.page(summary.id, appId, 1000, 0);
        expect(total, `round ${round}, app ${i}`).toBe(counts[i]);
        expect(rows.map((row) => row.position)).toEqual(specs[i]!.map((_, position) => position));
        expect(rows.map((row) => [row.spec, row.last_run_number, row.avg_duration_ms])).toEqual(
          specs[i]!.map((spec) => [spec.spec, spec.lastRunNumber, spec.avgDurationMs]),
        );
      }
    }
  });
});
