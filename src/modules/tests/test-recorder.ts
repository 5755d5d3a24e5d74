import { type ReportedTest, shortName } from '../test-results/report-model.js';
import { createPackWriter, PACKED_STATUSES, type PackedResult, type PackedStatus } from './result-pack.js';
import type { IdentityResolver } from './identity-cache.js';
import { TITLE_SEPARATOR, type TestIdentityParts, testIdOf } from './test-identity.js';

/** An identity to find or create, with its key (the testId). */
export interface IdentityToResolve extends TestIdentityParts {
  key: string;
}

/**
 * Tests per batch of identities handed over. Small, so that a batch's titles are handed over
 * before the young generation is collected twice: a test's strings take a kilobyte or two and
 * the parser allocates several more per test, so a batch of 1,000 outlived two collections and
 * was copied into the old generation, which grew by ~190 MB an upload before a full collection.
 */
const BATCH_TESTS = 250;
/**
 * Batches out at once at which the reader waits for the oldest: the file is not read faster than
 * the database takes its tests, so memory stays bounded.
 */
const MAX_OUTSTANDING = 16;
/** shortName's bound: 1,000 bytes of UTF-8 (so at most 1,000 characters, and surely 333). */
const NAME_MAX_BYTES = 1000;
// eslint-disable-next-line no-control-regex
const CUT_CHARACTERS = /[\u0000\u001b]/;
const STATUS_CODES: Record<PackedStatus, number> = { passed: 0, failed: 1, flaky: 2, skipped: 3 };
const NONE = Promise.resolve(new Int32Array(0));

/**
 * shortName without its copy for the common short, clean name: the name lives only until its
 * batch is flushed, so it may share the parser's chunk meanwhile.
 */
function nameOf(text: string): string {
  const fits =
    text.length <= NAME_MAX_BYTES / 3 ||
    (text.length <= NAME_MAX_BYTES && Buffer.byteLength(text) <= NAME_MAX_BYTES);
  if (fits && !CUT_CHARACTERS.test(text)) return text.trim() || '(unnamed)';
  return shortName(text);
}

/**
 * The tests of one batch as columns of numbers. Its identities (with their titles) are handed
 * over when the batch is full and dropped here; until their ids come back a test costs a few
 * bytes, not an object that would outlive the young generation and pile up in the old one.
 */
function createBatch() {
  return {
    /** The batch's distinct identities, and where each key is among them. */
    identities: [] as IdentityToResolve[],
    positions: new Map<string, number>(),
    count: 0,
    spec: new Int32Array(BATCH_TESTS),
    identity: new Int32Array(BATCH_TESTS),
    /** The id of a test whose identity was known already (0: it is among `identities`). */
    known: new Int32Array(BATCH_TESTS),
    status: new Uint8Array(BATCH_TESTS),
    retries: new Float64Array(BATCH_TESTS),
    duration: new Float64Array(BATCH_TESTS),
    /** Failed tests (by their place in the batch) with their keys, for the failure rows. */
    failed: [] as { key: string; at: number }[],
  };
}
type Batch = ReturnType<typeof createBatch>;

/**
 * Records the tests of one upload as its reader hands them over (`onTest`): each gets its
 * identity (found or created in batches while the file is still being read), and its result is
 * packed into its spec's bytes as the ids come back, so memory holds a few bytes per test, not
 * the test. `resolve` answers batches in the order they were handed over.
 */
export function createTestRecorder(appId: number, identities: IdentityResolver) {
  const specs = new Map<string, number>();
  const writers: { spec: string; pack: ReturnType<typeof createPackWriter> }[] = [];
  /** The identity ids of failed tests by key, for their failure rows. */
  const failedIds = new Map<string, number>();
  let current = createBatch();
  /** The last batch handed over: the next one is packed after it. */
  let tail: Promise<void> = Promise.resolve();
  /** Batches handed over and not yet packed, oldest first. */
  const outstanding: Promise<void>[] = [];
  /** Whether any identity went to the database (then it settles before the upload's rows). */
  let handedOver = false;
  const result: PackedResult = { identityId: 0, status: 'passed', retries: 0, durationMs: 0 };

  function specOf(spec: string): number {
    let index = specs.get(spec);
    if (index === undefined) {
      index = writers.length;
      specs.set(spec, index);
      writers.push({ spec, pack: createPackWriter() });
    }
    return index;
  }

  const idOf = (batch: Batch, ids: ArrayLike<number>, at: number) =>
    batch.known[at] || (ids[batch.identity[at]!] ?? 0);

  function pack(batch: Batch, ids: ArrayLike<number>) {
    for (let at = 0; at < batch.count; at++) {
      const identityId = idOf(batch, ids, at);
      if (!(identityId > 0)) continue;
      result.identityId = identityId;
      result.status = PACKED_STATUSES[batch.status[at]!]!;
      result.retries = batch.retries[at]!;
      result.durationMs = batch.duration[at]!;
      writers[batch.spec[at]!]!.pack.add(result);
    }
    for (const { key, at } of batch.failed) {
      const identityId = idOf(batch, ids, at);
      if (identityId > 0) failedIds.set(key, identityId);
    }
  }

  /**
   * Hands the batch's identities over at once and goes on without waiting: the reader parses on
   * while the database resolves them. Batches are packed one after another, in order.
   */
  function flush(): Promise<void> {
    const batch = current;
    if (batch.count === 0) return tail;
    current = createBatch();
    const asks = batch.identities.length > 0;
    handedOver ||= asks;
    const answer = asks ? identities.resolve(appId, batch.identities) : NONE;
    batch.identities = [];
    batch.positions = new Map();
    const done = tail.then(async () => pack(batch, await answer));
    tail = done;
    outstanding.push(done);
    // Nobody may be waiting on this batch yet: its failure is seen by the next wait or by finish.
    const settled = () => void outstanding.shift();
    done.then(settled, settled);
    return done;
  }

  return {
    /** The collector's `onTest`: answers the test's key (its testId) for its failure record. */
    onTest(test: ReportedTest): string {
      const title = nameOf(test.titlePath.length > 0 ? test.titlePath.join(TITLE_SEPARATOR) : test.title);
      const project = test.project ? nameOf(test.project) : '';
      const key = testIdOf(appId, { spec: test.spec, title, project });
      const batch = current;
      const at = batch.count++;
      const known = identities.known(appId, key);
      if (known === undefined) {
        let position = batch.positions.get(key);
        if (position === undefined) {
          position = batch.identities.length;
          batch.positions.set(key, position);
          batch.identities.push({ key, spec: test.spec, title, project });
        }
        batch.identity[at] = position;
      }
      batch.known[at] = known ?? 0;
      batch.spec[at] = specOf(test.spec);
      batch.status[at] = STATUS_CODES[test.outcome];
      batch.retries[at] = test.retries;
      batch.duration[at] = test.durationMs;
      if (test.outcome === 'failed') batch.failed.push({ key, at });
      if (batch.count === BATCH_TESTS) void flush();
      return key;
    },

    /**
     * Between chunks of the file: a promise to wait for once MAX_OUTSTANDING batches are
     * unanswered, so that the file is not read faster than the database takes its tests (memory
     * stays bounded); undefined otherwise.
     */
    flushIfDue(): Promise<void> | undefined {
      if (outstanding.length < MAX_OUTSTANDING) return undefined;
      // The tests gathered so far go too: while the reader waits, the requests served meanwhile
      // would have their titles outlive collections of the young generation.
      void flush();
      return outstanding[0];
    },

    /** Resolves what is left and answers each spec's packed results. */
    async finish(): Promise<Map<string, Buffer>> {
      await flush();
      if (handedOver) await identities.settle();
      // A spec none of whose tests got an identity has no packed results (null, not empty).
      const packed = writers.filter(({ pack: writer }) => writer.length > 0);
      return new Map(packed.map(({ spec, pack: writer }) => [spec, writer.finish()]));
    },

    /** The identity id of a failed test by the key `onTest` answered for it. */
    identityOfFailure(key: string | undefined): number | null {
      return key === undefined ? null : (failedIds.get(key) ?? null);
    },
  };
}

export type TestRecorder = ReturnType<typeof createTestRecorder>;
