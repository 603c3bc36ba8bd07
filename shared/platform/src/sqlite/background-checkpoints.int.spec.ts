import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_STREAM } from '../ports/event-store.ts';
import { newEvent } from '../testing/contract-helpers.ts';
import { openSqliteEventStore } from './sqlite-event-store.ts';
import { openSqliteReadStore } from './sqlite-read-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const until = async (done: () => boolean, what: string) => {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('WAL checkpoints in the background', () => {
  it("copies a read store's commits into its database file without a COMMIT of the store running a checkpoint", async () => {
    const file = join(dir, 'read.db');
    const store = openSqliteReadStore({ file, synchronous: 'NORMAL' });
    const connection = (store as unknown as { db: { pragma(sql: string, o: { simple: true }): unknown } }).db;
    // Far above SQLite's default of 1000 pages: the store's own commits leave checkpoints to the thread.
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000n);
    const before = statSync(file).size;
    const doc = { text: 'x'.repeat(4000) };
    for (let i = 0; i < 300; i++) await store.transaction(async (tx) => tx.put('docs', `doc-${i}`, { ...doc, i }));
    // 300 documents of 4 KB: over a megabyte, which only a checkpoint moves from the WAL into the file.
    await until(() => statSync(file).size > before + 1_000_000, 'the database file to receive the WAL');
    expect(await store.get('docs', 'doc-299')).toMatchObject({ i: 299 });
    await store.close();
  });

  it("checkpoints an event store's WAL too, and lets the file go when the store closes", async () => {
    const file = join(dir, 'events.db');
    const store = openSqliteEventStore({ file });
    const before = statSync(file).size;
    for (let i = 0; i < 200; i++) await store.append(`estate-${i}`, [newEvent('RoofAdded', { note: 'y'.repeat(4000) })], NO_STREAM);
    await until(() => statSync(file).size > before + 500_000, 'the database file to receive the WAL');
    await store.close();
    const reopened = openSqliteEventStore({ file });
    expect(await reopened.headPosition()).toBe(200n);
    await reopened.close();
  });
});
