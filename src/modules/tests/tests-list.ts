import type { SpecQuarantine } from '../quarantine/quarantine.schema.js';
import { unpackResults } from './result-pack.js';
import { type ResultOfRun, statsOf, type TestStats } from './test-stats.js';
import type { IdentityRow, PackedSpecRow, TestsRepository } from './tests.repository.js';
import type { TestFilter, TestItem } from './tests.schema.js';

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

interface Entry {
  identity: IdentityRow;
  stats: TestStats;
}

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

function keeps(entry: Entry, filter: TestListFilter): boolean {
  const { stats, identity } = entry;
  if (filter.status === 'failing' && stats.lastStatus !== 'failed') return false;
  if (filter.status === 'flaky' && !stats.isFlaky) return false;
  if (filter.status === 'skipped' && stats.lastStatus !== 'skipped') return false;
  const search = filter.search?.trim().toLowerCase();
  return !search || identity.title.toLowerCase().includes(search);
}

/** Failing first, then flaky, then by title, spec and project. */
function byImportance(a: Entry, b: Entry): number {
  const rank = (entry: Entry) => (entry.stats.lastStatus === 'failed' ? 0 : entry.stats.isFlaky ? 1 : 2);
  return (
    rank(a) - rank(b) ||
    a.identity.title.localeCompare(b.identity.title) ||
    a.identity.spec.localeCompare(b.identity.spec) ||
    a.identity.project.localeCompare(b.identity.project)
  );
}

/**
 * One page of an app's tests over spec rows of a window: every test's figures are worked out
 * (the order needs them all), the errors only for the page.
 */
export async function listTests(
  repository: TestsRepository,
  rows: readonly PackedSpecRow[],
  filter: TestListFilter,
  page: { limit: number; offset: number },
  quarantineOf: QuarantineOfTest,
): Promise<{ items: TestItem[]; total: number }> {
  const byIdentity = resultsByIdentity(
    filter.spec === undefined ? rows : rows.filter((r) => r.spec === filter.spec),
  );
  const identities = new Map(
    (await repository.identitiesByIds([...byIdentity.keys()])).map((identity) => [identity.id, identity]),
  );
  const entries: Entry[] = [];
  for (const [identityId, results] of byIdentity) {
    const identity = identities.get(identityId);
    const stats = statsOf(results);
    if (identity && stats) entries.push({ identity, stats });
  }
  const kept = entries.filter((entry) => keeps(entry, filter)).sort(byImportance);
  const pageEntries = kept.slice(page.offset, page.offset + page.limit);
  const errors = new Map(
    (
      await repository.failuresOf(
        [...new Set(pageEntries.map((entry) => entry.stats.lastFailedUploadId).filter((id) => id !== null))],
        pageEntries
          .filter((entry) => entry.stats.lastFailedUploadId !== null)
          .map((entry) => entry.identity.id),
      )
    ).map((row) => [`${row.upload_id}:${row.identity_id}`, row]),
  );
  const items = pageEntries.map(({ identity, stats }): TestItem => {
    const error = errors.get(`${stats.lastFailedUploadId}:${identity.id}`);
    const { lastFailedUploadId: _upload, isFlaky: _flaky, ...figures } = stats;
    return {
      testId: identity.key,
      spec: identity.spec,
      title: identity.title,
      project: identity.project === '' ? null : identity.project,
      ...figures,
      lastError: error ? { message: error.message, stack: error.stack, location: error.location } : null,
      quarantine: quarantineOf({ spec: identity.spec, title: identity.title, testId: identity.key }),
    };
  });
  return { items, total: kept.length };
}
