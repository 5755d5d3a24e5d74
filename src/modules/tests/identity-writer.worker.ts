import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import {
  type CheckpointRequest,
  identitySql,
  type IdentityReply,
  type WriterRequest,
} from './identity-sql.js';

/**
 * The identity writer's thread: its own connection to the service's SQLite file, so that the
 * upload's identity rows (inserted with their random-key index, committed and checkpointed) are
 * written while the main thread goes on parsing and answering reads.
 */
const { filename } = workerData as { filename: string };
const database = new SqliteDatabase(filename);
database.pragma('busy_timeout = 5000');
database.pragma('foreign_keys = ON');
database.pragma('synchronous = NORMAL');
// While batches keep coming, the WAL may grow to 16 MB before this connection copies it back
// into the file (a checkpoint: mostly two fsyncs, whatever its size), four times SQLite's
// default; at the end of an upload it is copied at once (asked), so that the main thread's
// commit of the upload does not do it. The page cache stays at SQLite's 2 MiB: 8 MiB kept more
// pages of the random-key index from being read again, but measured over five uploads of
// 200,000 new tests each it cost 3.8 MiB more peak memory for a gain within the noise (5 %).
// (better-sqlite3 builds SQLite with a 16 MiB default, hence the pragma.)
database.pragma('wal_autocheckpoint = 4000');
database.pragma('cache_size = -2000');
const sql = identitySql(database);
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const port = parentPort!;

/**
 * Identities per transaction at most. Batches waiting together share one commit: every commit
 * writes again each page of the key index the batch touched, and keys land all over it. Bounded
 * as the main thread's batches were, since a write on the main thread waits for the lock meanwhile.
 */
const TRANSACTION_IDENTITIES = 2000;

function failure(error: unknown): { message: string; code?: string } {
  const { message, code } = error as { message?: string; code?: unknown };
  return { message: message ?? String(error), ...(typeof code === 'string' ? { code } : {}) };
}

/** Copies the WAL back into the file now (asked at the end of an upload); never fails it. */
function copyBack(request: CheckpointRequest): IdentityReply {
  try {
    checkpoint.run();
  } catch {
    // A checkpoint left undone is done by the next one; the upload stands.
  }
  return { id: request.id, ids: new Int32Array(0) };
}

port.on('message', (first: WriterRequest) => {
  if ('checkpoint' in first) return port.postMessage(copyBack(first));
  const batches = [first];
  let identities = first.keys.length;
  let after: CheckpointRequest | undefined;
  while (identities < TRANSACTION_IDENTITIES && !after) {
    const next = receiveMessageOnPort(port)?.message as WriterRequest | undefined;
    if (!next) break;
    if ('checkpoint' in next) after = next;
    else {
      batches.push(next);
      identities += next.keys.length;
    }
  }
  let replies: IdentityReply[];
  try {
    replies = sql.resolve(batches).map(({ ids }, index) => ({ id: batches[index]!.id, ids }));
  } catch (error) {
    const reason = failure(error);
    replies = batches.map((batch) => ({ id: batch.id, error: reason }));
  }
  for (const reply of replies) port.postMessage(reply);
  if (after) port.postMessage(copyBack(after));
});
