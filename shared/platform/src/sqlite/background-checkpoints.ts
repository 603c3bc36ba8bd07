import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * How often the thread checkpoints each file. At the embedded job rate the WAL gains a few hundred
 * pages in this time; a checkpoint of them costs the thread a few milliseconds, the stores nothing.
 */
const INTERVAL_MS = 200;
/**
 * The WAL size (pages) at which a store's own connection checkpoints after all: SQLite's default is
 * 1000, which made one commit in about five jobs a checkpoint with two fsyncs on the event loop. The
 * thread keeps the WAL far below this; it is what still bounds the WAL if the thread fell behind or died.
 */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

let thread: Worker | null = null;
let unavailable = false;

function checkpointThread(): Worker | null {
  if (unavailable) return null;
  if (thread) return thread;
  try {
    const started = new Worker(new URL('./checkpointer.worker.mjs', import.meta.url), { workerData: { intervalMs: INTERVAL_MS } });
    // Checkpoints are housekeeping: the thread never keeps the process alive.
    started.unref();
    const gone = () => {
      // Stores opened later checkpoint on their own, as SQLite does by default; open ones keep the fallback.
      unavailable = true;
      if (thread === started) thread = null;
    };
    started.on('error', gone);
    started.on('exit', gone);
    thread = started;
    return thread;
  } catch {
    unavailable = true;
    return null;
  }
}

/**
 * Hands the WAL checkpoints of `db` (a store's connection to `file`, in WAL mode) to one thread of
 * the process, so no COMMIT of the store's own connection runs one. Returns what to call when the
 * store closes. In memory, or where the thread cannot start, the connection keeps SQLite's own.
 */
export function checkpointInBackground(db: Database.Database, file: string): () => void {
  if (file === ':memory:' || file === '') return () => undefined;
  const worker = checkpointThread();
  if (!worker) return () => undefined;
  const path = resolve(file);
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  worker.postMessage({ add: path });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    thread?.postMessage({ remove: path });
  };
}
