import { afterAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { readStoreContract } from '../testing/read-store.contract.ts';
import { uniqueName } from '../testing/contract-helpers.ts';
import { openMongoReadStore, type MongoReadStoreOptions } from './mongo-read-store.ts';
import { checkpointsCollection, documentsCollection } from './mongo-names.ts';
import { startTestMongo } from './test-server.ts';

const server = await startTestMongo('rs');
const mongo = 'skip' in server ? undefined : server;
if (!mongo) console.warn(`[skip] ReadStore contract: mongodb — ${(server as { skip: string }).skip}`);

describe.skipIf(!mongo)('MongoReadStore', () => {
  const { url, database, source } = mongo ?? { url: '', database: '', source: '' };
  const open = (prefix: string, mode?: MongoReadStoreOptions['mode']) =>
    openMongoReadStore({ url, database, prefix, ...(mode ? { mode } : {}) });
  const raw = new MongoClient(url || 'mongodb://unused');
  afterAll(async () => {
    await raw.close();
    await mongo?.stop();
  });

  // On a replica set the first run commits with transactions; the second forces the standalone path,
  // so both are covered wherever a server is given.
  readStoreContract(`mongodb (${source}, mode auto)`, (storage) => open(storage));
  readStoreContract(`mongodb (${source}, mode guarded)`, (storage) => open(storage, 'guarded'));

  it('commits with transactions exactly when the server is a replica set, and says so when they are demanded of a standalone', async () => {
    const hello = await raw.db('admin').command({ hello: 1 });
    const replicaSet = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    const store = await open(uniqueName('mode'));
    expect(store.mode).toBe(replicaSet ? 'transactions' : 'guarded');
    await store.close();
    if (replicaSet) {
      const demanded = await open(uniqueName('mode'), 'transactions');
      expect(demanded.mode).toBe('transactions');
      await demanded.close();
    } else {
      await expect(open(uniqueName('mode'), 'transactions')).rejects.toThrow(/replica set/);
    }
  });

  it('creates an index on each field it filters on by value or sorts on, and none for $ne', async () => {
    const prefix = uniqueName('indexes');
    const store = await open(prefix);
    await store.transaction(async (tx) => {
      await tx.put('estates', 'e1', { owner: { city: 'Gent' }, heated: true, year: 1970, label: 'A' });
      await tx.put('estates', 'e2', { owner: { city: 'Gent' }, heated: false, year: 1990 });
    });
    const result = await store.query('estates', {
      filter: { 'owner.city': 'Gent', heated: true, label: { $ne: 'B' } },
      sort: [{ field: 'year', order: 'DESC' }],
    });
    expect(result.total).toBe(1);
    const indexes = await raw
      .db(database)
      .collection(documentsCollection(database, prefix, 'estates'))
      .listIndexes()
      .toArray();
    const keys = indexes.map((i) => Object.keys(i.key as object).join(','));
    expect(keys).toEqual(expect.arrayContaining(['_id', 'doc.owner.city', 'doc.heated', 'doc.year']));
    expect(keys).not.toContain('doc.label');
    await store.close();
  });

  it('guarded: a replay of a position already committed changes nothing, a later position does', async () => {
    const store = await open(uniqueName('guard'), 'guarded');
    const increment = (position: bigint, extra?: string) =>
      store.transaction(async (tx) => {
        const counter = (await tx.get<{ n: number }>('counters', 'c')) ?? { n: 0 };
        await tx.put('counters', 'c', { n: counter.n + 1 });
        if (extra) await tx.put('counters', extra, { n: 1 });
        await tx.saveCheckpoint('p', position);
      });
    await increment(10n);
    // As after a crash between the documents and the checkpoint: the same events again.
    await increment(10n, 'not-reached-before');
    expect(await store.get('counters', 'c')).toEqual({ n: 1 });
    expect(await store.get('counters', 'not-reached-before')).toEqual({ n: 1 });
    await store.transaction(async (tx) => {
      await tx.delete('counters', 'c');
      await tx.saveCheckpoint('p', 9n);
    });
    expect(await store.get('counters', 'c')).toEqual({ n: 1 });
    await increment(11n);
    expect(await store.get('counters', 'c')).toEqual({ n: 2 });
    expect(await store.loadCheckpoint('p')).toBe(11n);
    await store.close();
  });

  it('stores checkpoints as exact 64-bit integers and refuses positions outside them', async () => {
    const store = await open(uniqueName('positions'));
    const big = 2n ** 63n - 1n;
    const odd = 2n ** 53n + 1n;
    await store.transaction(async (tx) => {
      await tx.saveCheckpoint('max', big);
      await tx.saveCheckpoint('odd', odd);
    });
    expect(await store.loadCheckpoint('max')).toBe(big);
    expect(await store.loadCheckpoint('odd')).toBe(odd);
    await expect(store.transaction((tx) => tx.saveCheckpoint('p', -1n))).rejects.toThrow(RangeError);
    await expect(store.transaction((tx) => tx.saveCheckpoint('p', 2n ** 63n))).rejects.toThrow(RangeError);
    await store.close();
  });

  it('finishes a reset cut short before handing out the checkpoint', async () => {
    const prefix = uniqueName('reset');
    const store = await open(prefix, 'guarded');
    await store.transaction(async (tx) => {
      await tx.put('orgs', 'o1', { name: 'Org' });
      await tx.saveCheckpoint('p', 5n);
    });
    // What `reset` writes first; the process then died before dropping anything.
    await raw
      .db(database)
      .collection<{ _id: string }>(checkpointsCollection(prefix))
      .replaceOne({ _id: 'p' }, { position: 0n, resetting: ['orgs'] });
    const reopened = await open(prefix, 'guarded');
    expect(await reopened.loadCheckpoint('p')).toBe(0n);
    expect(await reopened.get('orgs', 'o1')).toBeNull();
    await Promise.all([store.close(), reopened.close()]);
  });

  it('keeps a document’s own _id and pos fields, and filters _id on the key', async () => {
    const store = await open(uniqueName('fields'));
    await store.transaction(async (tx) => {
      await tx.put('things', 'a', { _id: 'inner', pos: 3, doc: 'x' });
      await tx.saveCheckpoint('p', 4n);
    });
    expect(await store.get('things', 'a')).toEqual({ _id: 'inner', pos: 3, doc: 'x' });
    expect((await store.query('things', { filter: { pos: 3 } })).total).toBe(1);
    expect((await store.query('things', { filter: { _id: 'a' } })).total).toBe(1);
    expect((await store.query('things', { filter: { _id: 'inner' } })).total).toBe(0);
    await store.close();
  });

  it('ranks a transaction’s kept writes among the committed documents in a filtered, sorted, paged query', async () => {
    const store = await open(uniqueName('overlay'));
    await store.transaction(async (tx) => {
      for (let i = 1; i <= 6; i++) await tx.put('items', `d${i}`, { n: i, group: 'A' });
    });
    const pages = await store.transaction(async (tx) => {
      await tx.put('items', 'k1', { n: 2.5, group: 'A' });
      await tx.put('items', 'd3', { n: 3, group: 'B' });
      await tx.delete('items', 'd4');
      await tx.put('items', 'k2', { n: 9, group: 'B' });
      await tx.put('items', 'd6', { n: 0, group: 'A' });
      const page = (p: number) =>
        tx.query<{ n: number }>('items', { filter: { group: 'A' }, sort: [{ field: 'n', order: 'DESC' }], page: p, pageSize: 2 });
      return [await page(1), await page(2), await page(3), await tx.query<{ n: number }>('items', { filter: { group: 'A' } })];
    });
    // Group A, by n descending: d5 (5), k1 (2.5), d2 (2), d1 (1), d6 (0).
    expect(pages.slice(0, 3).map((p) => p.items.map((d) => d.n))).toEqual([[5, 2.5], [2, 1], [0]]);
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5, 5]);
    expect((await store.query('items', { filter: { group: 'B' } })).total).toBe(2);
    await store.close();
  });

  it('serves reads outside a transaction from committed data while one is open', async () => {
    const store = await open(uniqueName('isolation'));
    await store.transaction((tx) => tx.put('orgs', 'o1', { name: 'before' }));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const writing = store.transaction(async (tx) => {
      await tx.put('orgs', 'o1', { name: 'uncommitted' });
      wrote();
      await held;
    });
    await written;
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'before' });
    expect((await store.query('orgs', { filter: { name: 'uncommitted' } })).total).toBe(0);
    release();
    await writing;
    expect(await store.get('orgs', 'o1')).toEqual({ name: 'uncommitted' });
    await store.close();
  });

  it('refuses bad input with a clear error', async () => {
    const store = await open(uniqueName('input'));
    await expect(store.query('x', { filter: { $where: 'true' } as never })).rejects.toThrow(/invalid field/);
    await expect(store.query('x', { filter: { a: { $regex: '.' } as never } })).rejects.toThrow(/unsupported operator/);
    await expect(store.query('bad$name')).rejects.toThrow(/collection name/);
    await expect(store.transaction((tx) => tx.put('x', 'a', 'text' as never))).rejects.toThrow(/JSON object/);
    await store.close();
  });
});
