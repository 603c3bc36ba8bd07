import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
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

  it('serves repeated reads from memory yet sees every commit: its own at once, another connection\'s soon', async () => {
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
});
