import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { identitySql, type IdentityBatch, type IdentityReply } from './identity-sql.js';

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
// default; between batches it is copied at once (below). Pages of the key index are written to
// the WAL by every commit that touches them, so a larger cache keeps them from being read again.
database.pragma('wal_autocheckpoint = 4000');
database.pragma('cache_size = -8000');
const sql = identitySql(database);
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const port = parentPort!;

/**
 * Identities per transaction at most. Batches waiting together share one commit: every commit
 * writes again each page of the key index the batch touched, and keys land all over it.
 */
const TRANSACTION_IDENTITIES = 4000;

function failure(error: unknown): { message: string; code?: string } {
  const { message, code } = error as { message?: string; code?: unknown };
  return { message: message ?? String(error), ...(typeof code === 'string' ? { code } : {}) };
}

port.on('message', (first: IdentityBatch) => {
  const batches = [first];
  let identities = first.keys.length;
  let drained = false;
  while (identities < TRANSACTION_IDENTITIES) {
    const next = receiveMessageOnPort(port);
    if (!next) {
      drained = true;
      break;
    }
    const batch = next.message as IdentityBatch;
    batches.push(batch);
    identities += batch.keys.length;
  }
  let replies: IdentityReply[];
  try {
    replies = sql.resolve(batches).map(({ ids }, index) => ({ id: batches[index]!.id, ids }));
  } catch (error) {
    const reason = failure(error);
    replies = batches.map((batch) => ({ id: batch.id, error: reason }));
  }
  for (const reply of replies) port.postMessage(reply);
  // Nothing else waits: checkpoint now, on this thread, so that the main thread's next commit
  // (the upload's own rows) finds the WAL copied back and does not copy it itself.
  if (drained) checkpoint.run();
});
