import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ReadStoreTx } from '../ports/read-store.ts';
import { readStoreContract } from '../testing/read-store.contract.ts';
import { openSqliteReadStore } from './sqlite-read-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-read-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

readStoreContract('sqlite', async (storage) => openSqliteReadStore({ file: join(dir, `${storage}.db`) }));

describe('SqliteReadStore', () => {
  it('serves reads outside a transaction from committed data, without waiting for the writer', async () => {
    const store = openSqliteReadStore({ file: join(dir, 'isolation.db') });
    await store.transaction((tx) => tx.put('orgs', 'o1', { name: 'before' }));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const writing = store.transaction(async (tx) => {
      await tx.put('orgs', 'o1', { name: 'uncommitted' });
      expect(await tx.get('orgs', 'o1')).toEqual({ name: 'uncommitted' });
      await held;
    });
    // The transaction is open and holds the writer: an outside read answers at once, with the committed value.
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'before' });
    expect((await store.query('orgs')).items).toEqual([{ name: 'before' }]);
    release();
    await writing;
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'uncommitted' });
    await store.close();
  });

  it("serves repeated reads from memory yet sees every commit: its own at once, another connection's soon", async () => {
    const file = join(dir, 'cache.db');
    const store = openSqliteReadStore({ file });
    await store.transaction((tx) => tx.put('orgs', 'o1', { name: 'v1' }));
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'v1' });
    const copy = (await store.get<{ name: string }>('orgs', 'o1'))!;
    copy.name = 'mutated by a caller';
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'v1' });
    await store.transaction((tx) => tx.put('orgs', 'o1', { name: 'v2' }));
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'v2' });
    await store.transaction((tx) => tx.delete('orgs', 'o1'));
    expect(await store.get('orgs', 'o1')).toBeNull();

    await store.transaction((tx) => tx.put('orgs', 'o2', { name: 'mine' }));
    expect(await store.get('orgs', 'o2')).toEqual({ name: 'mine' });
    // Another process writing the same file (an operator's rebuild, say).
    const other = openSqliteReadStore({ file });
    await other.transaction((tx) => tx.put('orgs', 'o2', { name: 'theirs' }));
    await other.close();
    await vi.waitFor(async () => expect(await store.get('orgs', 'o2')).toEqual({ name: 'theirs' }), { timeout: 2000, interval: 50 });
    await store.close();
  });

  it("sees another connection's commit even when one of its own follows before the next check", async () => {
    const file = join(dir, 'cache-then-own.db');
    const store = openSqliteReadStore({ file });
    await store.transaction((tx) => tx.put('orgs', 'o1', { name: 'mine' }));
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'mine' });
    const other = openSqliteReadStore({ file });
    await other.transaction((tx) => tx.put('orgs', 'o1', { name: 'theirs' }));
    await other.close();
    // Its own commit must not pass for the other one: taking the file's version after it as known would.
    await store.transaction((tx) => tx.put('orgs', 'o2', { name: 'unrelated' }));
    await vi.waitFor(async () => expect(await store.get('orgs', 'o1')).toEqual({ name: 'theirs' }), { timeout: 2000, interval: 50 });
    await store.close();
  });

  it('refuses a transaction handle kept past its commit or rollback', async () => {
    const store = openSqliteReadStore({ file: join(dir, 'stale-handle.db') });
    let kept!: ReadStoreTx;
    await store.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept.put('orgs', 'late', { name: 'late' })).rejects.toThrow(/already finished/);
    await expect(
      store.transaction(async (tx) => {
        kept = tx;
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    await expect(kept.get('orgs', 'late')).rejects.toThrow(/already finished/);
    await expect(kept.saveCheckpoint('p', 1n)).rejects.toThrow(/already finished/);
    // The next transaction is untouched by the stale handle.
    await store.transaction((tx) => tx.put('orgs', 'o1', { name: 'next' }));
    expect(await store.get('orgs', 'late')).toBeNull();
    expect(await store.loadCheckpoint('p')).toBe(0n);
    await store.close();
  });

  it('matches booleans by JSON type and _id by key', async () => {
    const store = openSqliteReadStore({ file: ':memory:' });
    await store.transaction(async (tx) => {
      await tx.put('flags', 'a', { on: true });
      await tx.put('flags', 'b', { on: 1 });
    });
    expect((await store.query<{ on: unknown }>('flags', { filter: { on: true } })).items).toEqual([{ on: true }]);
    expect((await store.query('flags', { filter: { _id: { $in: ['b'] } } })).items).toEqual([{ on: 1 }]);
    await store.close();
  });

  it('rejects a field name that cannot be a JSON path', async () => {
    const store = openSqliteReadStore({ file: ':memory:' });
    await expect(store.query('x', { filter: { 'a..b': 1 } })).rejects.toThrow(/invalid field/);
    await store.close();
  });

  it('converts a file whose documents table has no rowid (as before) keeping every document, checkpoint and query', async () => {
    const file = join(dir, 'without-rowid.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec(`
      CREATE TABLE documents (collection TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL CHECK (json_valid(doc)), PRIMARY KEY (collection, id)) WITHOUT ROWID;
      CREATE TABLE checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE INDEX documents_by_status ON documents (collection, json_extract(doc, '$."status"'));
      INSERT INTO checkpoints VALUES ('jobs', 42);
    `);
    const put = old.prepare('INSERT INTO documents VALUES (?, ?, ?)');
    for (let i = 0; i < 50; i++)
      put.run('jobs', `j${String(i).padStart(2, '0')}`, JSON.stringify({ status: i % 2 ? 'RUNNING' : 'FINISHED', pad: 'x'.repeat(3000) }));
    old.close();

    const store = openSqliteReadStore({ file });
    expect(await store.loadCheckpoint('jobs')).toBe(42n);
    expect(await store.get('jobs', 'j07')).toMatchObject({ status: 'RUNNING' });
    const running = await store.query<{ status: string }>('jobs', {
      filter: { status: 'RUNNING' },
      sort: [{ field: '_id', order: 'ASC' }],
    });
    expect(running.total).toBe(25);
    await store.transaction((tx) => tx.put('jobs', 'j07', { status: 'FINISHED' }));
    expect((await store.query('jobs', { filter: { status: 'RUNNING' } })).total).toBe(24);
    await store.close();

    const check = new Database(file, { readonly: true });
    const { sql } = check.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'documents'").get()!;
    expect(sql).not.toMatch(/WITHOUT ROWID/i);
    expect(check.prepare('SELECT count(*) AS n FROM documents').get()).toEqual({ n: 50 });
    // The status index is now the jobs collection's own (partial): writes to other collections skip it.
    const indexes = check
      .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'documents_by_%'")
      .all();
    expect(indexes).toHaveLength(1);
    expect(indexes[0]!.sql).toMatch(/json_extract\(doc, '\$\."status"'\)\) WHERE collection = 'jobs'$/);
    check.close();
  });

  it('indexes a filtered field for the queried collection only, and drops an index over every collection left by an older version', async () => {
    const file = join(dir, 'partial-indexes.db');
    const store = openSqliteReadStore({ file });
    await store.transaction(async (tx) => {
      await tx.put('jobs', 'j1', { status: 'RUNNING' });
      await tx.put('members', 'm1', { status: 'RUNNING' });
    });
    await store.close();
    const older = new Database(file);
    older.exec(`CREATE INDEX documents_by_0123456789abcdef ON documents (collection, json_extract(doc, '$."status"'))`);
    older.close();

    const reopened = openSqliteReadStore({ file });
    expect((await reopened.query('jobs', { filter: { status: 'RUNNING' } })).items).toEqual([{ status: 'RUNNING' }]);
    expect((await reopened.query('members', { filter: { status: { $in: ['RUNNING', 'DONE'] } } })).total).toBe(1);
    await reopened.close();
    const check = new Database(file, { readonly: true });
    const indexes = check
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'documents_by_%' ORDER BY sql")
      .all();
    expect(indexes.map((i) => i.sql.replace(/documents_by_[0-9a-f]+/, 'I'))).toEqual([
      `CREATE INDEX I ON documents (json_extract(doc, '$."status"')) WHERE collection = 'jobs'`,
      `CREATE INDEX I ON documents (json_extract(doc, '$."status"')) WHERE collection = 'members'`,
    ]);
    check.close();
  });
});
