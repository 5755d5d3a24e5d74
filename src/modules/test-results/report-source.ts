import { addDays } from '../../shared/time.js';
import {
  findSpecialRuns,
  resolveAttempts,
  runKey,
  type SpecialRuns,
  specsLeftByCrash,
} from './run-attempts.js';
import type { TestResultsRepository, UploadedSpecRow } from './test-results.repository.js';

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

/**
 * A stored spec as a row of the Cypress export's spec-details report. "Last failure by" is the
 * commit's author, or whoever triggered the run when the uploader did not know the author.
 */
function toRow(spec: UploadedSpecRow, nameOf: Map<number, string>): Row {
  return {
    project_name: nameOf.get(spec.app_id),
    run_number: spec.run_number,
    created_at: spec.created_at,
    status: spec.status,
    spec: spec.spec,
    flaky_tests: spec.flaky,
    spec_duration: spec.duration_ms,
    commit_author_name: spec.author ?? spec.triggered_by ?? '',
    commit_sha: spec.commit_sha,
    run_url: spec.run_url,
    error_message: spec.first_failure_message,
  };
}

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
 * asked at all. A run the CI re-ran counts each spec from its highest attempt (a failure that
 * passed on the re-run is flaky), and a run that crashed fails every spec it left without a
 * result (run-attempts.ts).
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
    const special = findSpecialRuns(await deps.repository.uploadsIn(appIds, fromIso, toIso));
    // The specs each app ran, for the runs that crashed before theirs ran (few apps have one).
    const crashedApps = new Set(
      [...special.runs.values()].filter((run) => run.crash).map((run) => run.appId),
    );
    const knownSpecs = new Map([...crashedApps].map((appId) => [appId, new Set<string>()]));
    const note = (row: UploadedSpecRow) => knownSpecs.get(row.app_id)?.add(row.spec);
    let afterId = 0;
    for (;;) {
      const page = await deps.repository.specsPage(appIds, fromIso, toIso, afterId, PAGE_SIZE);
      const plain =
        special.uploadIds.size === 0 ? page : page.filter((row) => !special.uploadIds.has(row.upload_id));
      for (const row of plain) note(row);
      if (plain.length > 0) yield plain.map((spec) => toRow(spec, nameOf));
      if (page.length < PAGE_SIZE) break;
      afterId = page[page.length - 1]!.id;
    }
    if (special.runs.size > 0) yield* specialRows(special, nameOf, knownSpecs, note);
  }

  /** The rows of re-run and crashed runs, read run by run once the plain rows are through. */
  async function* specialRows(
    special: SpecialRuns,
    nameOf: Map<number, string>,
    knownSpecs: Map<number, Set<string>>,
    note: (row: UploadedSpecRow) => void,
  ): AsyncIterable<readonly Row[]> {
    const rows = await deps.repository.specsOfUploads([...special.uploadIds]);
    const byRun = new Map<string, UploadedSpecRow[]>();
    for (const row of rows) {
      const key = runKey(row.app_id, row.run_number);
      const list = byRun.get(key);
      if (list) list.push(row);
      else byRun.set(key, [row]);
    }
    const resolvedByRun = new Map<string, UploadedSpecRow[]>();
    for (const [key, run] of special.runs) {
      const resolved = resolveAttempts(run, byRun.get(key) ?? []);
      resolved.forEach(note);
      resolvedByRun.set(key, resolved);
    }
    for (const [key, run] of special.runs) {
      const resolved = resolvedByRun.get(key)!;
      const left = specsLeftByCrash(run, resolved, knownSpecs.get(run.appId) ?? new Set());
      yield [...resolved, ...left].map((spec) => toRow(spec, nameOf));
    }
  }

  return {
    async *specDetails(query) {
      for await (const rows of batches(query)) yield* rows;
    },
    specDetailBatches: batches,
  };
}
