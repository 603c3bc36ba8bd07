// WAL checkpoints of the process's SQLite stores, in a thread of their own (background-checkpoints.ts):
// a checkpoint copies the WAL into the database file and syncs both, several milliseconds the thread
// serving requests and projections would otherwise spend blocked in the COMMIT that triggered it.
// Plain JavaScript: it needs nothing but better-sqlite3.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** Open connections by file, with how many stores of the process use the file. */
const files = new Map();

parentPort.on('message', ({ add, remove }) => {
  if (add) {
    const entry = files.get(add);
    if (entry) entry.refs += 1;
    else {
      try {
        files.set(add, { db: new Database(add, { fileMustExist: true }), refs: 1 });
      } catch {
        // Gone already (a store closed at once): nothing to checkpoint.
      }
    }
  }
  if (remove) {
    const entry = files.get(remove);
    if (entry && --entry.refs === 0) {
      files.delete(remove);
      close(entry.db);
    }
  }
});

function close(db) {
  try {
    db.close();
  } catch {
    // Closing a connection to a file removed under it: nothing left to keep.
  }
}

setInterval(() => {
  for (const [file, entry] of files) {
    try {
      // PASSIVE: copies what no reader still needs and never waits for the store's own connections.
      entry.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      files.delete(file);
      close(entry.db);
    }
  }
}, workerData.intervalMs);
