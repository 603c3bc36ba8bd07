import { afterAll, describe, expect, it } from 'vitest';
import { readStoreContract } from '../testing/read-store.contract.ts';
import { uniqueName } from '../testing/contract-helpers.ts';
import { openPostgresReadStore } from './postgres-read-store.ts';
import { postgresListening, testPostgresUrl, testSchemas } from './test-database.ts';

const reachable = await postgresListening();
if (!reachable)
  console.warn(`[skip] ReadStore contract: postgres — nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`);

const schemas = testSchemas('rs');
const open = (storage: string) => openPostgresReadStore({ connectionString: testPostgresUrl, schema: schemas.schemaOf(storage) });

describe.skipIf(!reachable)('PostgresReadStore', () => {
  afterAll(() => schemas.drop());

  readStoreContract('postgres', (storage) => open(storage));

  it('matches booleans and numbers by JSON type, _id by key, and sorts mixed types as MongoDB does', async () => {
    const store = await open(uniqueName('types'));
    await store.transaction(async (tx) => {
      await tx.put('flags', 'a', { on: true, v: 'x' });
      await tx.put('flags', 'b', { on: 1, v: 2 });
      await tx.put('flags', 'c', { on: false });
      await tx.put('flags', 'd', { on: 1.0, v: 10 });
    });
    const ids = async (options: Parameters<typeof store.query>[1]) => (await store.query<{ on: unknown }>('flags', options)).items;
    expect(await ids({ filter: { on: true } })).toEqual([{ on: true, v: 'x' }]);
    expect((await ids({ filter: { on: 1 } })).length).toBe(2);
    expect(await ids({ filter: { _id: { $in: ['b'] } } })).toEqual([{ on: 1, v: 2 }]);
    expect((await ids({ sort: [{ field: 'v', order: 'ASC' }] })).map((d) => (d as { v?: unknown }).v)).toEqual([undefined, 2, 10, 'x']);
    expect((await ids({ filter: { v: { $gte: 2 } } })).length).toBe(2);
    await store.close();
  });

  it('sees its own writes inside a transaction, and commits none when the server refuses one', async () => {
    const store = await open(uniqueName('kept-writes'));
    await store.transaction(async (tx) => {
      await tx.put('orgs', 'o1', { name: 'first' });
      await tx.delete('orgs', 'o1');
      expect(await tx.get('orgs', 'o1')).toBeNull();
      await tx.put('orgs', 'o2', { name: 'second' });
      expect((await tx.query('orgs')).items).toEqual([{ name: 'second' }]);
      await tx.put('orgs', 'o2', { name: 'third' });
      expect(await tx.get('orgs', 'o2')).toEqual({ name: 'third' });
    });
    expect((await store.query('orgs')).items).toEqual([{ name: 'third' }]);
    // JSONB cannot hold \u0000: the whole transaction fails at commit, its checkpoint with it.
    await expect(
      store.transaction(async (tx) => {
        await tx.put('orgs', 'o3', { name: 'ok' });
        await tx.put('orgs', 'o4', { name: 'nul\u0000' });
        await tx.saveCheckpoint('p', 9n);
      }),
    ).rejects.toThrow();
    expect(await store.get('orgs', 'o3')).toBeNull();
    expect(await store.loadCheckpoint('p')).toBe(0n);
    await store.close();
  });

  it('serves reads outside a transaction from committed data while another writes', async () => {
    const storage = uniqueName('isolation');
    const [writer, reader] = [await open(storage), await open(storage)];
    await writer.transaction((tx) => tx.put('orgs', 'o1', { name: 'before' }));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const writing = writer.transaction(async (tx) => {
      await tx.put('orgs', 'o1', { name: 'uncommitted' });
      wrote();
      await held;
    });
    await written;
    expect(await reader.get('orgs', 'o1')).toEqual({ name: 'before' });
    release();
    await writing;
    expect(await reader.get('orgs', 'o1')).toEqual({ name: 'uncommitted' });
    await Promise.all([writer.close(), reader.close()]);
  });

  it('serialises read-modify-write transactions of two processes on one schema', async () => {
    const storage = uniqueName('two-writers');
    const stores = [await open(storage), await open(storage)];
    const increment = (i: number) =>
      stores[i % 2]!.transaction(async (tx) => {
        const counter = (await tx.get<{ n: number }>('counters', 'c')) ?? { n: 0 };
        await new Promise((resolve) => setTimeout(resolve, 1));
        await tx.put('counters', 'c', { n: counter.n + 1 });
      });
    await Promise.all(Array.from({ length: 10 }, (_, i) => increment(i)));
    expect(await stores[0]!.get('counters', 'c')).toEqual({ n: 10 });
    await Promise.all(stores.map((s) => s.close()));
  });
});
