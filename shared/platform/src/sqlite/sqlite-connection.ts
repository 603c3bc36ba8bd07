import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * How hard a commit is pushed to disk. `FULL` (the default): an acknowledged commit survives a crash
 * of the process and of the machine (power loss). `NORMAL` (WAL): it survives a crash of the process
 * (kill -9) but the last commits before a power loss may be lost (never a corrupt file); it saves
 * the fsync of every commit, which bounds the write rate on slow disks (see `npm run bench -- jobs`).
 */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

/**
 * Opens a SQLite file the way every Renopath store needs it: WAL so readers never block the writer,
 * the `synchronous` level chosen (FULL unless the operator picks NORMAL), integers as bigint.
 */
export function openSqlite(file: string, schema: string, synchronous: SqliteSynchronous = 'FULL'): Database.Database {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    // Another process (a CLI rebuild, a second service on the same file) may hold the write lock briefly.
    db.pragma('busy_timeout = 5000');
    db.defaultSafeIntegers(true);
    db.exec(schema);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
