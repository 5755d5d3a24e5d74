import type { ResolveIdentitiesOn } from './identity-cache.js';
import type { IdentityToResolve } from './test-recorder.js';

/** Finds or creates the identities of an app, answering their row ids by key. */
export type ResolveIdentitiesByKey = (
  appId: number,
  identities: readonly IdentityToResolve[],
  day: string,
) => Promise<Map<string, number>>;

/** Identities per call at most when batches that wait are taken together (one transaction). */
const TRANSACTION_IDENTITIES = 2000;

interface Waiting {
  appId: number;
  identities: readonly IdentityToResolve[];
  day: string;
  answer(ids: number[]): void;
  fail(error: unknown): void;
}

/**
 * Runs a resolver that answers by key (the repository's, one transaction a call) for batches
 * handed over without waiting: one call at a time, in the order asked, the batches of an app and
 * day that wait meanwhile taken together (up to 2,000 identities, each once), since a commit
 * costs more than the rows it carries (a PostgreSQL round trip and WAL flush each). The rows and
 * ids are those of the batches resolved one after another. Answers in the order of each batch.
 */
export function inWaitingBatches(resolve: ResolveIdentitiesByKey): ResolveIdentitiesOn {
  const queue: Waiting[] = [];
  let running = false;

  function take(): Waiting[] {
    const first = queue.shift()!;
    const taken = [first];
    let count = first.identities.length;
    for (let next = queue[0]; next !== undefined; next = queue[0]) {
      if (next.appId !== first.appId || next.day !== first.day) break;
      if (count + next.identities.length > TRANSACTION_IDENTITIES) break;
      count += next.identities.length;
      taken.push(queue.shift()!);
    }
    return taken;
  }

  async function run() {
    running = true;
    while (queue.length > 0) {
      // SQLite's one connection is held by the transaction while it runs: the requests that are
      // waiting go first (and batches arriving meanwhile join this one).
      await new Promise((resolveTurn) => setImmediate(resolveTurn));
      const taken = take();
      const unique = new Map<string, IdentityToResolve>();
      for (const { identities } of taken) {
        for (const identity of identities) if (!unique.has(identity.key)) unique.set(identity.key, identity);
      }
      try {
        const ids = await resolve(taken[0]!.appId, [...unique.values()], taken[0]!.day);
        for (const item of taken) item.answer(item.identities.map((identity) => ids.get(identity.key) ?? 0));
      } catch (error) {
        for (const item of taken) item.fail(error);
      }
    }
    running = false;
  }

  return (appId, identities, day) =>
    new Promise((answer, fail) => {
      queue.push({ appId, identities, day, answer, fail });
      if (!running) void run();
    });
}
