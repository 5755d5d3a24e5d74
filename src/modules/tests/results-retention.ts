import { setTimeout as sleep } from 'node:timers/promises';
import { addDays } from '../../shared/time.js';
import { REPORT_WINDOW_DAYS } from '../reports/aggregation.js';
import type { ResultsRetentionRepository } from './results-retention.repository.js';
import { oldestKeptDay } from './window-retention.js';

/** How the purge paces itself: every batch is one write transaction. */
export interface RetentionPacing {
  /**
   * Time a batch should take; the batch size follows it. Well under the 200 ms lock budget: on
   * SQLite a batch also holds the process's event loop, so reads wait for it (p99 ≤ 50 ms).
   */
  targetMs: number;
  /** Pause between batches so that reads and uploads waiting on the database go first. */
  pauseMs: number;
  initialBatch: number;
  minBatch: number;
  maxBatch: number;
}

export const DEFAULT_PACING: RetentionPacing = {
  targetMs: 20,
  pauseMs: 20,
  initialBatch: 20,
  minBatch: 1,
  maxBatch: 2000,
};

/**
 * The size of the next batch after one of `size` took `elapsedMs`: scaled towards `targetMs`,
 * at most doubled at once (a fast small batch says little about a big one), within the bounds.
 */
export function nextBatchSize(size: number, elapsedMs: number, pacing: RetentionPacing): number {
  const scaled = elapsedMs > 0 ? Math.floor((size * pacing.targetMs) / elapsedMs) : size * 2;
  return Math.max(pacing.minBatch, Math.min(pacing.maxBatch, size * 2, scaled));
}

/** The instant before which uploads go: `days` whole days before `now`. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

export interface RetentionOutcome {
  cutoff: string;
  uploads: number;
  identities: number;
  /** Write transactions used. */
  batches: number;
  /** The longest of them, in ms. */
  longestBatchMs: number;
}

interface Tally {
  deleted: number;
  batches: number;
  longestMs: number;
}

/** Runs `purge` batch after batch until a batch finds nothing, adapting the size by its time. */
async function inBatches(
  purge: (limit: number) => Promise<number>,
  pacing: RetentionPacing,
  clock: () => number,
): Promise<Tally> {
  const tally: Tally = { deleted: 0, batches: 0, longestMs: 0 };
  let size = pacing.initialBatch;
  for (;;) {
    const started = clock();
    const deleted = await purge(size);
    const elapsed = clock() - started;
    tally.batches += 1;
    tally.longestMs = Math.max(tally.longestMs, elapsed);
    tally.deleted += deleted;
    if (deleted < size) return tally;
    size = nextBatchSize(size, elapsed, pacing);
    await sleep(pacing.pauseMs);
  }
}

export interface ResultsRetention {
  /** Deletes what is older than the retention; resolves with what went. */
  run(): Promise<RetentionOutcome>;
}

/**
 * The `results-retention` job's work: uploads run more than `days` ago with their packed results
 * and failures, then the test identities no upload kept uses. Report summaries and details are
 * other tables, untouched. Running twice is harmless (the second finds nothing), and the
 * scheduler's tick lock keeps several scheduler processes from running one tick twice.
 */
export function createResultsRetention(deps: {
  repository: ResultsRetentionRepository;
  days: number;
  pacing?: Partial<RetentionPacing>;
  now?: () => Date;
}): ResultsRetention {
  const pacing = { ...DEFAULT_PACING, ...deps.pacing };
  const now = deps.now ?? (() => new Date());
  const clock = () => performance.now();
  return {
    async run() {
      const cutoff = retentionCutoff(now(), deps.days);
      const cutoffIso = cutoff.toISOString();
      const uploads = await inBatches(
        (limit) => deps.repository.purgeUploads(cutoffIso, limit),
        pacing,
        clock,
      );
      // last_seen is the UTC day of the last upload holding the test: a day before the cutoff's
      // day means every upload holding it is older than the cutoff.
      const cutoffDay = cutoffIso.slice(0, 10);
      const identities = await inBatches(
        (limit) => deps.repository.purgeIdentities(cutoffDay, limit * 50),
        pacing,
        clock,
      );
      // A report whose window starts before the first whole day kept has lost results: its stored
      // test figures go too (a read of its tests works them out again from what is left).
      const windows = await inBatches(
        (limit) =>
          deps.repository.purgeWindows(addDays(oldestKeptDay(cutoff), REPORT_WINDOW_DAYS), limit * 50),
        pacing,
        clock,
      );
      return {
        cutoff: cutoffIso,
        uploads: uploads.deleted,
        identities: identities.deleted,
        batches: uploads.batches + identities.batches + windows.batches,
        longestBatchMs: Math.round(Math.max(uploads.longestMs, identities.longestMs, windows.longestMs)),
      };
    },
  };
}
