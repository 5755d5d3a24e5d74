import type { SpecQuarantine } from '../quarantine/quarantine.schema.js';
import { unpackResults } from './result-pack.js';
import { type CompactStats, expandStats, type ResultOfRun, type RunOfUpload, statsOf } from './test-stats.js';
import type { PackedSpecRow, TestsRepository } from './tests.repository.js';
import type { TestFilter, TestItem } from './tests.schema.js';
import { compactOfRow } from './window-stats.js';
import type { WindowKey, WindowStatsRepository, WindowTestItemRow } from './window-stats.repository.js';

export interface TestListFilter {
  spec?: string | undefined;
  status?: TestFilter | undefined;
  search?: string | undefined;
}

/** Which active quarantine covers a test (spec-wide or of that very test); null when none. */
export type QuarantineOfTest = (test: {
  spec: string;
  title: string;
  testId: string;
}) => SpecQuarantine | null;

/** Every test's results in the rows, by identity id. */
function resultsByIdentity(rows: readonly PackedSpecRow[]): Map<number, ResultOfRun[]> {
  const byIdentity = new Map<number, ResultOfRun[]>();
  for (const row of rows) {
    for (const packed of unpackResults(row.results)) {
      const result: ResultOfRun = {
        uploadId: row.upload_id,
        runNumber: row.run_number,
        attempt: row.attempt,
        status: packed.status,
        durationMs: packed.durationMs,
        at: row.created_at,
        commitSha: row.commit_sha,
        runUrl: row.run_url,
      };
      const list = byIdentity.get(packed.identityId);
      if (list) list.push(result);
      else byIdentity.set(packed.identityId, [result]);
    }
  }
  return byIdentity;
}

/** Per spec: its tests, those whose last run failed or skipped, and the flaky ones. */
export function countTestsBySpec(
  rows: readonly PackedSpecRow[],
): Map<string, { total: number; failing: number; flaky: number; skipped: number }> {
  const bySpec = new Map<string, PackedSpecRow[]>();
  for (const row of rows) {
    const list = bySpec.get(row.spec);
    if (list) list.push(row);
    else bySpec.set(row.spec, [row]);
  }
  const counts = new Map<string, { total: number; failing: number; flaky: number; skipped: number }>();
  for (const [spec, specRows] of bySpec) {
    const tally = { total: 0, failing: 0, flaky: 0, skipped: 0 };
    for (const results of resultsByIdentity(specRows).values()) {
      const stats = statsOf(results);
      if (!stats) continue;
      tally.total += 1;
      if (stats.lastStatus === 'failed') tally.failing += 1;
      if (stats.lastStatus === 'skipped') tally.skipped += 1;
      if (stats.isFlaky) tally.flaky += 1;
    }
    counts.set(spec, tally);
  }
  return counts;
}

/** One page of a window's stored tests: filtered in the database, the title search here (any case). */
async function pageOf(
  windows: WindowStatsRepository,
  key: WindowKey,
  filter: TestListFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: WindowTestItemRow[]; total: number }> {
  const search = filter.search?.trim().toLowerCase();
  const where = { spec: filter.spec, status: filter.status };
  if (!search) return windows.page(key, where, page);
  const kept = (await windows.titles(key, where)).filter(({ title }) => title.toLowerCase().includes(search));
  const positions = kept.slice(page.offset, page.offset + page.limit).map(({ position }) => position);
  return { rows: await windows.atPositions(key, positions), total: kept.length };
}

function uploadIdsOf(stats: readonly CompactStats[]): number[] {
  const ids = new Set<number>();
  for (const entry of stats) {
    ids.add(entry.lastUploadId);
    if (entry.failingSinceUploadId !== null) ids.add(entry.failingSinceUploadId);
    for (const point of entry.history) ids.add(point.uploadId);
    for (const evidence of entry.flakyEvidence) ids.add(evidence.uploadId);
  }
  return [...ids];
}

/**
 * One page of an app's tests in a report's window, read from the figures stored for it
 * (window-stats.ts); undefined when an upload they name is gone (the caller works them out again).
 */
export async function listTests(
  repositories: { windows: WindowStatsRepository; tests: TestsRepository },
  key: WindowKey,
  filter: TestListFilter,
  page: { limit: number; offset: number },
  quarantineOf: QuarantineOfTest,
): Promise<{ items: TestItem[]; total: number } | undefined> {
  const { rows, total } = await pageOf(repositories.windows, key, filter, page);
  const entries = rows.map((row) => ({ row, stats: compactOfRow(row) }));
  const failing = entries.filter((entry) => entry.stats.lastFailedUploadId !== null);
  const [uploads, failures] = await Promise.all([
    repositories.windows.uploadsByIds(uploadIdsOf(entries.map((entry) => entry.stats))),
    repositories.tests.failuresOf(
      [...new Set(failing.map((entry) => entry.stats.lastFailedUploadId!))],
      failing.map((entry) => entry.row.identity_id),
    ),
  ]);
  const runs = new Map<number, RunOfUpload>(
    uploads.map((upload) => [
      upload.id,
      {
        runNumber: upload.run_number,
        attempt: upload.attempt,
        at: upload.created_at,
        commitSha: upload.commit_sha,
        runUrl: upload.run_url,
      },
    ]),
  );
  if (uploadIdsOf(entries.map((entry) => entry.stats)).some((id) => !runs.has(id))) return undefined;
  const errors = new Map(failures.map((row) => [`${row.upload_id}:${row.identity_id}`, row]));
  const items = entries.map(({ row, stats }): TestItem => {
    const error = errors.get(`${stats.lastFailedUploadId}:${row.identity_id}`);
    const expanded = expandStats(stats, (uploadId) => runs.get(uploadId)!);
    const { lastFailedUploadId: _upload, isFlaky: _flaky, ...figures } = expanded;
    return {
      testId: row.key,
      spec: row.spec,
      title: row.title,
      project: row.project === '' ? null : row.project,
      ...figures,
      lastError: error ? { message: error.message, stack: error.stack, location: error.location } : null,
      quarantine: quarantineOf({ spec: row.spec, title: row.title, testId: row.key }),
    };
  });
  return { items, total };
}
