import type { Db } from '../../db/database.js';
import { walkPack } from './pack-walk.js';
import { type PackedResult, unpackResults } from './result-pack.js';

/** A spec row of one test's spec, as the test page orders and counts it. */
interface SpecRow {
  id: number;
  upload_id: number;
  created_at: string;
  results: Uint8Array | null;
}

/** What the test page says of an upload's run. */
export interface RunRow {
  id: number;
  run_number: number;
  attempt: number;
  created_at: string;
  commit_sha: string | null;
  branch: string | null;
  run_url: string | null;
}

/** How many results of one identity a pack holds. */
export function countInPack(packed: Uint8Array | null, identityId: number): number {
  let count = 0;
  walkPack(packed, (id) => {
    if (id === identityId) count++;
  });
  return count;
}

/** Newest run first; within one upload, its spec rows as stored. */
const newestFirst = (a: SpecRow, b: SpecRow) =>
  a.created_at !== b.created_at
    ? a.created_at < b.created_at
      ? 1
      : -1
    : a.upload_id !== b.upload_id
      ? b.upload_id - a.upload_id
      : a.id - b.id;

/**
 * One page of every stored result of one test, newest first, and how many there are. Only the
 * spec rows of its spec are read, their packs counted without decoding; only the page's rows are
 * decoded and only the page's uploads read.
 */
export function createTestPageReader(db: Db) {
  return {
    async page(
      appId: number,
      identity: { id: number; spec: string },
      page: { limit: number; offset: number },
    ): Promise<{ results: { run: RunRow; packed: PackedResult }[]; total: number }> {
      const rows: SpecRow[] = await db
        .selectFrom('test_result_specs as s')
        .innerJoin('test_result_uploads as u', 'u.id', 's.upload_id')
        .select(['s.id', 's.upload_id', 'u.created_at', 's.results'])
        .where('s.spec', '=', identity.spec)
        .where('u.app_id', '=', appId)
        .execute();
      rows.sort(newestFirst);
      let total = 0;
      let skip = page.offset;
      const picked: { row: SpecRow; from: number; count: number }[] = [];
      let wanted = page.limit;
      for (const row of rows) {
        const count = countInPack(row.results, identity.id);
        total += count;
        if (count === 0 || wanted === 0) continue;
        if (skip >= count) {
          skip -= count;
          continue;
        }
        const taken = Math.min(count - skip, wanted);
        picked.push({ row, from: skip, count: taken });
        wanted -= taken;
        skip = 0;
      }
      const runs = new Map(
        picked.length === 0
          ? []
          : (
              await db
                .selectFrom('test_result_uploads')
                .select(['id', 'run_number', 'attempt', 'created_at', 'commit_sha', 'branch', 'run_url'])
                .where('id', 'in', [...new Set(picked.map(({ row }) => row.upload_id))])
                .execute()
            ).map((run) => [run.id, run]),
      );
      const results = picked.flatMap(({ row, from, count }) => {
        const run = runs.get(row.upload_id);
        // An upload deleted (retention) between the two reads: its results are gone.
        if (!run) return [];
        return unpackResults(row.results)
          .filter((packed) => packed.identityId === identity.id)
          .slice(from, from + count)
          .map((packed) => ({ run, packed }));
      });
      return { results, total };
    },
  };
}

export type TestPageReader = ReturnType<typeof createTestPageReader>;
