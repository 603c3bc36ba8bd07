import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_STREAM } from '../ports/event-store.ts';
import { newEvent } from '../testing/contract-helpers.ts';
import { openSqliteEventStore } from './event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from './sqlite-read-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const until = async (done: () => boolean, what: string) => {
  for (let waited = 0; !done(); waited += 20) {
    // The background thread's next checkpoint, on a machine that may be busy.
    if (waited > 60_000) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('WAL checkpoints in the background', { timeout: 90_000 }, () => {
  it("copies a read store's commits into its database file without a COMMIT of the store running a checkpoint", async () => {
    const file = join(dir, 'read.db');
    const store = openSqliteReadStore({ file, synchronous: 'NORMAL' });
    const before = statSync(file).size;
    const doc = { text: 'x'.repeat(4000) };
    for (let i = 0; i < 300; i++) await store.transaction(async (tx) => tx.put('docs', `doc-${i}`, { ...doc, i }));
    // 300 documents of 4 KB: over a megabyte, which only a checkpoint moves from the WAL into the file,
    // and fewer pages than a commit's own checkpoint waits for (SQLite's 1000 by default; the store's
    // connection sets more): the background thread is what moves them.
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
