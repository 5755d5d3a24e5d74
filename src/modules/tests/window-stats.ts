import { walkPack } from './pack-walk.js';
import { createPackWriter, type PackedStatus, unpackResults } from './result-pack.js';
import { type CompactStats, compactStatsOf, type FlakyKind, type ResultOfRun } from './test-stats.js';
import type { IdentityRow, TestsRepository } from './tests.repository.js';
import {
  fingerprintOf,
  type NewWindowTestRow,
  type WindowKey,
  type WindowStatsRepository,
  type WindowTestRow,
} from './window-stats.repository.js';

/** A report's window in ISO times: [fromIso, toIso). */
export interface WindowRange {
  fromIso: string;
  toIso: string;
}

/**
 * A window holds millions of results: working them out takes most of a second, so the work lets
 * waiting requests go first every few thousand spec rows and every few hundred tests (on SQLite
 * the API may share this process).
 */
const YIELD_ROWS = 2000;
const YIELD_TESTS = 250;
const turn = () => new Promise((resolve) => setImmediate(resolve));

interface Entry {
  identity: IdentityRow;
  stats: CompactStats;
}

/** Failing first, then flaky, then by title, spec and project: the tests list's order. */
function byImportance(a: Entry, b: Entry): number {
  const rank = (entry: Entry) => (entry.stats.lastStatus === 'failed' ? 0 : entry.stats.isFlaky ? 1 : 2);
  return (
    rank(a) - rank(b) ||
    a.identity.title.localeCompare(b.identity.title) ||
    a.identity.spec.localeCompare(b.identity.spec) ||
    a.identity.project.localeCompare(b.identity.project)
  );
}

// History points and flakiness evidence are packed like results, the upload id standing in for
// the identity; evidence keeps its kind in the retries bits.
const EVIDENCE_KINDS: readonly FlakyKind[] = ['retry', 'same_commit'];

function packHistory(history: CompactStats['history']): Buffer {
  const writer = createPackWriter(history.length * 6);
  for (const point of history) writer.add({ identityId: point.uploadId, retries: 0, ...point });
  return writer.finish();
}

function packEvidence(evidence: CompactStats['flakyEvidence']): Buffer | null {
  if (evidence.length === 0) return null;
  const writer = createPackWriter(evidence.length * 5);
  for (const { uploadId, kind } of evidence) {
    writer.add({
      identityId: uploadId,
      status: 'passed',
      retries: EVIDENCE_KINDS.indexOf(kind),
      durationMs: 0,
    });
  }
  return writer.finish();
}

/** A stored row's figures, runs still named by upload id. */
export function compactOfRow(row: WindowTestRow): CompactStats {
  return {
    runs: row.runs,
    passed: row.passed,
    failed: row.failed,
    flaky: row.flaky,
    skipped: row.skipped,
    passRate: row.pass_rate / 10_000,
    flakeRate: row.flake_rate / 10_000,
    avgDurationMs: row.avg_duration_ms,
    p90DurationMs: row.p90_duration_ms,
    lastStatus: row.last_status as PackedStatus,
    lastUploadId: row.last_upload_id,
    failingSinceUploadId: row.failing_since_upload_id,
    history: unpackResults(row.history).map(({ identityId, status, durationMs }) => ({
      uploadId: identityId,
      status,
      durationMs,
    })),
    flakyEvidence: unpackResults(row.evidence).map(({ identityId, retries }) => ({
      uploadId: identityId,
      kind: EVIDENCE_KINDS[retries] ?? 'same_commit',
    })),
    lastFailedUploadId: row.last_failed_upload_id,
    isFlaky: row.is_flaky === 1,
  };
}

function rowOf(key: WindowKey, position: number, { identity, stats }: Entry): NewWindowTestRow {
  return {
    report_summary_id: key.summaryId,
    app_id: key.appId,
    position,
    identity_id: identity.id,
    last_status: stats.lastStatus,
    is_flaky: stats.isFlaky ? 1 : 0,
    runs: stats.runs,
    passed: stats.passed,
    failed: stats.failed,
    flaky: stats.flaky,
    skipped: stats.skipped,
    pass_rate: Math.round(stats.passRate * 10_000),
    flake_rate: Math.round(stats.flakeRate * 10_000),
    avg_duration_ms: stats.avgDurationMs,
    p90_duration_ms: stats.p90DurationMs,
    last_upload_id: stats.lastUploadId,
    failing_since_upload_id: stats.failingSinceUploadId,
    last_failed_upload_id: stats.lastFailedUploadId,
    history: packHistory(stats.history),
    evidence: packEvidence(stats.flakyEvidence),
  };
}

/** Every test's results in a window, by identity id. */
async function resultsByIdentity(
  repository: WindowStatsRepository,
  appId: number,
  range: WindowRange,
): Promise<{ byIdentity: Map<number, ResultOfRun[]>; uploadIds: number[] }> {
  const uploads = await repository.uploadsIn(appId, range.fromIso, range.toIso);
  const order = new Map(uploads.map((upload, index) => [upload.id, index]));
  // By run time, then as stored (the order the results of one run are told apart by).
  const at = (uploadId: number) => uploads[order.get(uploadId)!]!.created_at;
  const rows = (await repository.packedRowsOf(uploads.map((upload) => upload.id))).sort((a, b) => {
    const [atA, atB] = [at(a.upload_id), at(b.upload_id)];
    return atA === atB ? a.id - b.id : atA < atB ? -1 : 1;
  });
  const byIdentity = new Map<number, ResultOfRun[]>();
  for (const [index, row] of rows.entries()) {
    if (index % YIELD_ROWS === YIELD_ROWS - 1) await turn();
    const upload = uploads[order.get(row.upload_id)!]!;
    walkPack(row.results, (identityId, status, durationMs) => {
      const result: ResultOfRun = {
        uploadId: upload.id,
        runNumber: upload.run_number,
        attempt: upload.attempt,
        status,
        durationMs,
        at: upload.created_at,
        commitSha: upload.commit_sha,
        runUrl: upload.run_url,
      };
      const list = byIdentity.get(identityId);
      if (list) list.push(result);
      else byIdentity.set(identityId, [result]);
    });
  }
  return { byIdentity, uploadIds: uploads.map((upload) => upload.id) };
}

/**
 * Works out every test's figures over a report's window for one app and stores them in the
 * list's order, with the fingerprint of the uploads they came from.
 */
export async function computeWindow(
  repositories: { windows: WindowStatsRepository; tests: TestsRepository },
  key: WindowKey,
  range: WindowRange,
): Promise<void> {
  const { byIdentity, uploadIds } = await resultsByIdentity(repositories.windows, key.appId, range);
  const identities = new Map(
    (await repositories.tests.identitiesByIds([...byIdentity.keys()])).map((identity) => [
      identity.id,
      identity,
    ]),
  );
  const entries: Entry[] = [];
  for (const [identityId, results] of byIdentity) {
    if (entries.length % YIELD_TESTS === YIELD_TESTS - 1) await turn();
    const identity = identities.get(identityId);
    const stats = compactStatsOf(results);
    if (identity && stats) entries.push({ identity, stats });
  }
  entries.sort(byImportance);
  await repositories.windows.replace(
    key,
    fingerprintOf(uploadIds),
    entries.map((entry, position) => rowOf(key, position, entry)),
  );
}

/**
 * Keeps the stored figures of windows up to date, one computation per window and set of uploads
 * at a time in this process: the requests that find a window out of date together (a report page
 * asks for its specs and its tests at once; several people open it after an upload) wait for the
 * one under way instead of each decoding the window's results, about a second at ten million.
 */
export function createWindowKeeper(repositories: { windows: WindowStatsRepository; tests: TestsRepository }) {
  const running = new Map<string, Promise<void>>();
  return {
    /** Makes sure the stored figures of a window are those of its uploads now (worked out again if not). */
    async ensure(key: WindowKey, range: WindowRange): Promise<void> {
      const [current, stored] = await Promise.all([
        repositories.windows.fingerprintIn(key.appId, range.fromIso, range.toIso),
        repositories.windows.fingerprint(key),
      ]);
      if (stored === current) return;
      // Keyed by the uploads too: a computation begun before another upload came is not joined.
      const id = `${key.summaryId}:${key.appId}:${current}`;
      let work = running.get(id);
      if (!work) {
        work = computeWindow(repositories, key, range).finally(() => running.delete(id));
        running.set(id, work);
      }
      await work;
    },
    /** Works the figures out again whatever is stored (an upload they name went meanwhile). */
    recompute: (key: WindowKey, range: WindowRange) => computeWindow(repositories, key, range),
  };
}
