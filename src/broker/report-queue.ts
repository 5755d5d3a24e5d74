import { CHANNELS } from './channels.js';

/** The dead-letter entry of the spec ("Dead-letter entry"). */
export interface DeadLetterEntry {
  /** The original payload, as published (without `retryCount`). */
  message: string;
  error: string;
  errorStack: string;
  retryCount: number;
  date: string;
  /** Time of the final failure. */
  timestamp: string;
}

export interface QueueStats {
  queued: number;
  inFlight: number;
  scheduledRetries: number;
  deadLetters: number;
  /** Age of the oldest message still waiting in the queue; null when it is empty or unknown. */
  oldestAgeMs: number | null;
  /**
   * Reports found stuck in `pending` (their request lost, e.g. by a broker restart without
   * persistence) and republished by the sweep, counted since the broker's data began.
   */
  staleRepublished: number;
}

/**
 * The work queue behind `e2e:report:generate`: queue → per-worker in-flight list (atomic move) →
 * done, retry set (due time) or dead-letter list. Messages are opaque strings (the JSON payload).
 */
export interface ReportQueue {
  /**
   * Appends a message unless one with the same `dedupKey` was appended within `dedupWindowMs`
   * (every subscriber of the channel receives the same publish). Returns whether it was added.
   */
  enqueue(payload: string, dedupKey?: string, dedupWindowMs?: number): Promise<boolean>;
  /** Moves the oldest message into `workerId`'s in-flight list; undefined when none came in `waitMs`. */
  take(workerId: string, waitMs: number): Promise<string | undefined>;
  /** Drops a finished message from the worker's in-flight list. */
  complete(workerId: string, payload: string): Promise<void>;
  /**
   * Moves an in-flight message to the retry set as `retryPayload`, due at `dueAtMs` (one step).
   * Does nothing when the message is no longer in this worker's in-flight list (recovered).
   */
  retryLater(workerId: string, payload: string, retryPayload: string, dueAtMs: number): Promise<void>;
  /** Moves an in-flight message to the dead-letter list as `entry` (one step; same rule). */
  deadLetter(workerId: string, payload: string, entry: DeadLetterEntry): Promise<void>;
  /** Moves retries that are due into the queue; returns how many. */
  promoteDueRetries(nowMs: number): Promise<number>;
  /** Declares the worker alive for `ttlMs` more. */
  heartbeat(workerId: string, ttlMs: number): Promise<void>;
  /** Re-queues the in-flight messages of workers whose heartbeat expired; returns how many. */
  recoverAbandoned(): Promise<number>;
  /** A worker leaving cleanly: re-queues whatever it still holds and forgets it. */
  retire(workerId: string): Promise<void>;
  /** Mutual exclusion by name (a date): true when `owner` now holds it for `ttlMs`. */
  acquireLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a held lock; false when `owner` no longer holds it. */
  extendLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLock(name: string, owner: string): Promise<void>;
  stats(nowMs: number): Promise<QueueStats>;
  /** Adds to the count of stale pending reports republished (shown by `stats`). */
  countStaleRepublished(count: number): Promise<void>;
  /**
   * Every message held for later work: waiting, in flight and scheduled for a retry (dead letters
   * are not: their reports are `failed`). A pending report with none of these is orphaned.
   */
  heldMessages(): Promise<string[]>;
  /**
   * Sets the marker this service keeps among the broker's data unless it is there already; true
   * when it was missing, i.e. the data is new or was lost (a restart without persistence) and
   * with it every request the broker held.
   */
  claimDataMarker(): Promise<boolean>;
  /** Newest first. */
  deadLetters(limit: number): Promise<DeadLetterEntry[]>;
  /** Re-enqueues the message of every dead letter and empties the list; returns how many. */
  replayDeadLetters(): Promise<number>;
}

/** Key and channel names; `namespace` '' gives the spec's names (docs/contract-notes.md, "Report processing"). */
export function reportKeys(namespace = '') {
  const base = `${namespace}e2e:report:`;
  return {
    channel: `${namespace}${CHANNELS.reportGenerate}`,
    queue: `${base}queue`,
    retry: `${base}retry`,
    failed: `${base}failed`,
    enqueuedAt: `${base}enqueued_at`,
    workers: `${base}workers`,
    processing: (workerId: string) => `${base}processing:${workerId}`,
    alive: (workerId: string) => `${base}worker:${workerId}`,
    lock: (name: string) => `${base}lock:${name}`,
    staleRepublished: `${base}stale_republished`,
    dataMarker: `${base}data_marker`,
    dedup: (key: string) => `${base}dedup:${key}`,
    claim: (key: string) => `${namespace}claim:${key}`,
  };
}

export type ReportKeys = ReturnType<typeof reportKeys>;
