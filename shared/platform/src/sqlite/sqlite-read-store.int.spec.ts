import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStoreContract } from '../testing/read-store.contract.ts';
import { openSqliteReadStore } from './sqlite-read-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-read-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

readStoreContract('sqlite', async (storage) => openSqliteReadStore({ file: join(dir, `${storage}.db`) }));

describe('SqliteReadStore', () => {
  it('refuses a nested transaction instead of waiting for itself forever', async () => {
    const store = openSqliteReadStore({ file: ':memory:' });
    await expect(store.transaction(() => store.transaction(async () => 1))).rejects.toThrow(/do not nest/);
    await store.close();
  });

  it('lets store reads inside a transaction see its own writes without waiting', async () => {
    const store = openSqliteReadStore({ file: ':memory:' });
    const seen = await store.transaction(async (tx) => {
      await tx.put('orgs', 'o1', { name: 'Org' });
      return store.get('orgs', 'o1');
    });
    expect(seen).toEqual({ name: 'Org' });
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
