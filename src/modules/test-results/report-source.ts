import { addDays } from '../../shared/time.js';
import type { TestResultsRepository } from './test-results.repository.js';

/** A watched app as the report worker knows it. */
export interface SourceApp {
  id: number;
  name: string;
}

export interface SpecDetailsQuery {
  startDate: string;
  endDate: string;
  projects: readonly string[];
  /** The watched apps behind `projects`; without them every project is asked of Cypress. */
  apps?: readonly SourceApp[];
}

type Row = Record<string, unknown>;

export interface SpecRowSource {
  specDetails(query: SpecDetailsQuery): AsyncIterable<Row>;
  /** The same rows in batches (no await per row), when the source reads them so. */
  specDetailBatches?(query: SpecDetailsQuery): AsyncIterable<readonly Row[]>;
}

/** Spec rows read from the database per query; a window holds any number of them. */
const PAGE_SIZE = 2000;

/**
 * The report's rows: an app with uploaded runs in the window gets its rows from the uploads,
 * shaped as the Cypress export's spec-details rows so the aggregator applies the same rules; the
 * other apps are asked of the test-results service as before, and when none is left it is not
 * asked at all.
 */
export function createReportRowSource(deps: {
  repository: TestResultsRepository;
  cypress: SpecRowSource;
}): SpecRowSource {
  async function* cypressBatches(query: SpecDetailsQuery): AsyncIterable<readonly Row[]> {
    if (deps.cypress.specDetailBatches) {
      yield* deps.cypress.specDetailBatches(query);
      return;
    }
    for await (const row of deps.cypress.specDetails(query)) yield [row];
  }

  async function* batches(query: SpecDetailsQuery): AsyncIterable<readonly Row[]> {
    const { startDate, endDate } = query;
    const apps = query.apps ?? [];
    const fromIso = `${startDate}T00:00:00.000Z`;
    const toIso = `${addDays(endDate, 1)}T00:00:00.000Z`;
    const uploaded = await deps.repository.appsWithUploads(
      apps.map((app) => app.id),
      fromIso,
      toIso,
    );
    const uploadNames = new Set(apps.filter((app) => uploaded.has(app.id)).map((app) => app.name));
    const projects = query.projects.filter((name) => !uploadNames.has(name));
    if (projects.length > 0) yield* cypressBatches({ startDate, endDate, projects });
    if (uploaded.size === 0) return;

    const nameOf = new Map(apps.map((app) => [app.id, app.name]));
    const appIds = [...uploaded];
    let afterId = 0;
    for (;;) {
      const page = await deps.repository.specsPage(appIds, fromIso, toIso, afterId, PAGE_SIZE);
      yield page.map((spec) => ({
        project_name: nameOf.get(spec.app_id),
        run_number: spec.run_number,
        created_at: spec.created_at,
        status: spec.status,
        spec: spec.spec,
        flaky_tests: spec.flaky,
        spec_duration: spec.duration_ms,
        commit_author_name: spec.author ?? '',
        commit_sha: spec.commit_sha,
        run_url: spec.run_url,
        error_message: spec.first_failure_message,
      }));
      if (page.length < PAGE_SIZE) return;
      afterId = page[page.length - 1]!.id;
    }
  }

  return {
    async *specDetails(query) {
      for await (const rows of batches(query)) yield* rows;
    },
    specDetailBatches: batches,
  };
}
