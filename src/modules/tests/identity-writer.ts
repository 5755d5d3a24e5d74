import { Worker } from 'node:worker_threads';
import type { IdentityBatch, IdentityReply, WriterRequest } from './identity-sql.js';
import type { IdentityToResolve } from './test-recorder.js';

export interface IdentityWriter {
  /**
   * The repository's resolveIdentities, run on the writer's thread; answers the ids in the order
   * asked (0 for none). Batches are resolved one after another in the order they were asked.
   */
  resolve(appId: number, identities: readonly IdentityToResolve[], day: string): Promise<Int32Array>;
  /**
   * Once the batches asked so far are written, copies the WAL back into the database file (a
   * checkpoint) on the thread, so that the next commit on the main thread finds nothing to copy.
   */
  settle(): Promise<void>;
  /** Stops the thread (a later call starts it again). */
  close(): Promise<void>;
}

/** A thread nobody asked for this long is stopped: its heap and connection are given back. */
const IDLE_MS = 30_000;

interface Waiting {
  resolve(ids: Int32Array): void;
  reject(error: unknown): void;
  /** A batch (its commit is told), not a checkpoint. */
  batch: boolean;
}

/** An error of the writer's thread, with SQLite's code kept (a busy file answers 503, not 500). */
function threadError(error: { message: string; code?: string }): Error {
  return Object.assign(new Error(error.message), error.code === undefined ? {} : { code: error.code });
}

/**
 * The thread's code: the compiled file beside this one; when the service runs from its
 * TypeScript sources (the tests), the same file through tsx, which the thread registers first.
 */
function startThread(workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('identity-writer.worker.js', import.meta.url), { workerData });
  }
  const source = JSON.stringify(new URL('identity-writer.worker.ts', import.meta.url).href);
  const code = `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * Runs identity resolution for an SQLite file on a worker thread with its own connection.
 * better-sqlite3 answers synchronously, so on the main thread every batch (its inserts into the
 * random-key index, its commit, and the WAL checkpoints that commits trigger) held the event
 * loop: reads waited behind it, and parsing stopped meanwhile. On its own thread the same
 * statements overlap with the parse on the other core. Batches run one after another in the order
 * they were asked, as on one connection. `onCommit` is told after each batch, so that the process's
 * cached reads learn of the written table.
 */
export function createIdentityWriter(options: { filename: string; onCommit?: () => void }): IdentityWriter {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  let idle: NodeJS.Timeout | undefined;

  function failAll(error: unknown) {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  }

  function start(): Worker {
    const thread = startThread({ filename: options.filename });
    thread.on('message', (reply: IdentityReply) => {
      const entry = waiting.get(reply.id);
      if (!entry) return;
      waiting.delete(reply.id);
      if (entry.batch) options.onCommit?.();
      if ('error' in reply) entry.reject(threadError(reply.error));
      else entry.resolve(reply.ids);
    });
    thread.on('error', (error) => failAll(error));
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      failAll(new Error(`the identity writer's thread stopped (exit code ${code})`));
    });
    return thread;
  }

  function keepAlive(thread: Worker) {
    // While batches are out the thread keeps the process alive; idle, it may not.
    if (waiting.size > 0) thread.ref();
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (waiting.size === 0 && worker === thread) {
        worker = undefined;
        void thread.terminate();
      }
    }, IDLE_MS);
    idle.unref();
  }

  function ask(thread: Worker, id: number, request: WriterRequest): Promise<Int32Array> {
    const batch = !('checkpoint' in request);
    const answer = new Promise<Int32Array>((resolve, reject) => waiting.set(id, { resolve, reject, batch }));
    thread.postMessage(request);
    keepAlive(thread);
    return answer.finally(() => {
      if (waiting.size === 0 && worker === thread) thread.unref();
    });
  }

  return {
    resolve(appId, identities, day) {
      const thread = (worker ??= start());
      const id = nextId++;
      const batch: IdentityBatch = { id, appId, day, keys: [], specs: [], titles: [], projects: [] };
      for (const identity of identities) {
        batch.keys.push(identity.key);
        batch.specs.push(identity.spec);
        batch.titles.push(identity.title);
        batch.projects.push(identity.project);
      }
      return ask(thread, id, batch);
    },

    async settle() {
      if (worker) await ask(worker, nextId++, { id: nextId - 1, checkpoint: true });
    },

    async close() {
      clearTimeout(idle);
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
    },
  };
}
