import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens a SQLite file the way every Renopath store needs it: WAL so readers never block the writer,
 * `synchronous=FULL` so an acknowledged commit survives a crash or power loss, integers as bigint.
 */
export function openSqlite(file: string, schema: string): Database.Database {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
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
