import { type ReportedTest, shortName } from '../test-results/report-model.js';
import { createPackWriter, type PackedStatus } from './result-pack.js';
import { TITLE_SEPARATOR, type TestIdentityParts, testIdOf } from './test-identity.js';

/** An identity to find or create, with its key (the testId). */
export interface IdentityToResolve extends TestIdentityParts {
  key: string;
}

/** Finds or creates the identities of an app, answering their row ids by key. */
export type ResolveIdentities = (
  appId: number,
  identities: readonly IdentityToResolve[],
) => Promise<Map<string, number>>;

interface PendingResult {
  key: string;
  spec: string;
  status: PackedStatus;
  retries: number;
  durationMs: number;
}

/**
 * Tests waiting for their identity ids: bounded while a JUnit file streams (its reader hands tests
 * over chunk by chunk); a JSON report hands them all at its end.
 */
const FLUSH_AFTER = 2000;
/** shortName's bound: 1,000 bytes of UTF-8 (so at most 1,000 characters, and surely 333). */
const NAME_MAX_BYTES = 1000;
// eslint-disable-next-line no-control-regex
const CUT_CHARACTERS = /[\u0000\u001b]/;

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
 * Records the tests of one upload as its reader hands them over (`onTest`): each gets its
 * identity (found or created in batches while the file is still being read), and its result is
 * packed into its spec's bytes at once, so memory holds a few bytes per test, not the test.
 */
export function createTestRecorder(appId: number, resolve: ResolveIdentities) {
  const packs = new Map<string, ReturnType<typeof createPackWriter>>();
  /** The identity ids of failed tests by key, for their failure rows. */
  const failedIds = new Map<string, number>();
  let pending: PendingResult[] = [];
  let identities = new Map<string, IdentityToResolve>();
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    if (pending.length === 0) return;
    const batch = pending;
    const wanted = identities;
    pending = [];
    identities = new Map();
    // The batch's transaction holds the database (SQLite's one connection) while it runs: let
    // the requests that are waiting go first.
    await new Promise((resolveTurn) => setImmediate(resolveTurn));
    const ids = await resolve(appId, [...wanted.values()]);
    for (const result of batch) {
      const identityId = ids.get(result.key);
      if (identityId === undefined) continue;
      let pack = packs.get(result.spec);
      if (!pack) {
        pack = createPackWriter();
        packs.set(result.spec, pack);
      }
      pack.add({ identityId, status: result.status, retries: result.retries, durationMs: result.durationMs });
      if (result.status === 'failed') failedIds.set(result.key, identityId);
    }
  }

  /** Runs one flush at a time; the next waits for the one under way. */
  function chainFlush(): Promise<void> {
    const previous = flushing ?? Promise.resolve();
    const next = previous.then(flush);
    flushing = next.finally(() => {
      if (flushing === guarded) flushing = undefined;
    });
    const guarded = flushing;
    return next;
  }

  return {
    /** The collector's `onTest`: answers the test's key (its testId) for its failure record. */
    onTest(test: ReportedTest): string {
      const title = nameOf(test.titlePath.length > 0 ? test.titlePath.join(TITLE_SEPARATOR) : test.title);
      const parts = { spec: test.spec, title, project: test.project ? nameOf(test.project) : '' };
      const key = testIdOf(appId, parts);
      if (!identities.has(key)) identities.set(key, { key, ...parts });
      pending.push({
        key,
        spec: test.spec,
        status: test.outcome,
        retries: test.retries,
        durationMs: test.durationMs,
      });
      return key;
    },

    /** A flush when enough tests wait (called between chunks of the file); undefined otherwise. */
    flushIfDue(): Promise<void> | undefined {
      return pending.length >= FLUSH_AFTER ? chainFlush() : undefined;
    },

    /** Resolves what is left and answers each spec's packed results. */
    async finish(): Promise<Map<string, Buffer>> {
      await chainFlush();
      return new Map([...packs].map(([spec, pack]) => [spec, pack.finish()]));
    },

    /** The identity id of a failed test by the key `onTest` answered for it. */
    identityOfFailure(key: string | undefined): number | null {
      return key === undefined ? null : (failedIds.get(key) ?? null);
    },
  };
}

export type TestRecorder = ReturnType<typeof createTestRecorder>;
