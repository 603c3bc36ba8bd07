import { afterEach, describe, expect, it } from 'vitest';
import { isImmutable } from '../internal/reply.ts';
import type { QueryOptions, ReadStore } from '../ports/read-store.ts';
import { readShared } from '../service/handler-kit.ts';
import { rejection, uniqueName } from './contract-helpers.ts';
import { ESTATES, FILTER_CASES, type Estate } from './read-store-cases.ts';

/**
 * Opens a read store on the storage named `storage`. A new name must give a store no other test
 * writes to; the same name again (after `close()`) must reopen the same data.
 */
export type ReadStoreFactory = (storage: string) => Promise<ReadStore>;

const idsOf = (docs: Estate[]): string[] => docs.map((d) => d.id);
// Binary order, as SQLite and MongoDB compare strings by default.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: Estate, b: Estate): number => compare(a.id, b.id);

/** What every ReadStore adapter must do; run it from the adapter's `*.int.spec.ts`. */
export function readStoreContract(name: string, open: ReadStoreFactory): void {
  describe(`ReadStore contract: ${name}`, () => {
    const opened: ReadStore[] = [];
    const openStore = async (storage = uniqueName('reads')): Promise<ReadStore> => {
      const store = await open(storage);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    async function seeded(): Promise<{ store: ReadStore; collection: string }> {
      const store = await openStore();
      const collection = uniqueName('estates');
      await store.transaction(async (tx) => {
        for (const estate of ESTATES) await tx.put(collection, estate.id, estate);
      });
      return { store, collection };
    }

    describe('documents', () => {
      it('puts, gets, overwrites and deletes by collection and id', async () => {
        const store = await openStore();
        const [estates, users] = [uniqueName('estates'), uniqueName('users')];
        expect(await store.get(estates, 'x')).toBeNull();
        await store.transaction(async (tx) => {
          await tx.put(estates, 'x', { name: 'first', nested: { list: [1, 2] } });
          await tx.put(users, 'x', { name: 'a user' });
        });
        expect(await store.get(estates, 'x')).toEqual({ name: 'first', nested: { list: [1, 2] } });
        await store.transaction((tx) => tx.put(estates, 'x', { name: 'second' }));
        expect(await store.get(estates, 'x')).toEqual({ name: 'second' });
        await store.transaction(async (tx) => {
          await tx.delete(estates, 'x');
          await tx.delete(estates, 'never-there');
        });
        expect(await store.get(estates, 'x')).toBeNull();
        expect(await store.get(users, 'x')).toEqual({ name: 'a user' });
      });

      it('hands out copies: changing a returned document changes nothing stored', async () => {
        const store = await openStore();
        const collection = uniqueName('estates');
        await store.transaction((tx) => tx.put(collection, 'x', { tags: ['a'] }));
        const doc = (await store.get<{ tags: string[] }>(collection, 'x'))!;
        doc.tags.push('b');
        expect(await store.get(collection, 'x')).toEqual({ tags: ['a'] });
      });

      it('reads for reading only (getShared where offered, get otherwise) and follows every commit', async () => {
        const store = await openStore();
        const collection = uniqueName('estates');
        type Doc = { name: string; nested?: { list: number[] } };
        const read = () => readShared<Doc>(store, collection, 'x');
        expect(await read()).toBeNull();
        await store.transaction((tx) => tx.put(collection, 'x', { name: 'first', nested: { list: [1, 2] } }));
        const first = (await read())!;
        expect(first).toEqual({ name: 'first', nested: { list: [1, 2] } });
        if (store.getShared) {
          // Callers share it: nothing in it can be changed, and it says so to whoever caches what it derives.
          expect(isImmutable(first) && isImmutable(first.nested) && isImmutable(first.nested!.list)).toBe(true);
          expect(() => first.nested!.list.push(3)).toThrow(TypeError);
          expect(() => ((first as { name: string }).name = 'changed')).toThrow(TypeError);
        }
        // `get` still hands out a copy of its own, and changing it changes no shared read.
        (await store.get<Doc>(collection, 'x'))!.nested!.list.push(3);
        expect(await read()).toEqual({ name: 'first', nested: { list: [1, 2] } });
        await store.transaction((tx) => tx.put(collection, 'x', { name: 'second' }));
        expect(await read()).toEqual({ name: 'second' });
        await store.transaction((tx) => tx.delete(collection, 'x'));
        expect(await read()).toBeNull();
      });
    });

    describe('query', () => {
      for (const [label, filter, predicate] of FILTER_CASES) {
        it(`filters on ${label}`, async () => {
          const { store, collection } = await seeded();
          const result = await store.query<Estate>(collection, { filter, sort: [{ field: 'name', order: 'ASC' }] });
          const expected = ESTATES.filter(predicate).sort((a, b) => compare(a.name, b.name));
          expect(idsOf(result.items)).toEqual(idsOf(expected));
          expect(result.total).toBe(expected.length);
        });
      }

      it('sorts on several fields, ascending and descending', async () => {
        const { store, collection } = await seeded();
        const result = await store.query<Estate>(collection, {
          sort: [
            { field: 'year', order: 'DESC' },
            { field: 'owner.city', order: 'ASC' },
          ],
        });
        const expected = [...ESTATES].sort((a, b) => b.year - a.year || compare(a.owner.city, b.owner.city));
        expect(idsOf(result.items)).toEqual(idsOf(expected));
      });

      it('pages through a sorted result without overlap, with the total on every page', async () => {
        const { store, collection } = await seeded();
        const options: QueryOptions = { filter: { year: { $gte: 1950 } }, sort: [{ field: 'area', order: 'ASC' }], pageSize: 2 };
        const expected = ESTATES.filter((e) => e.year >= 1950).sort((a, b) => a.area - b.area);
        const pages = [];
        for (let page = 1; page <= Math.ceil(expected.length / 2) + 1; page++) {
          pages.push(await store.query<Estate>(collection, { ...options, page }));
        }
        expect(pages.map((p) => p.total)).toEqual(pages.map(() => expected.length));
        expect(pages.flatMap((p) => idsOf(p.items))).toEqual(idsOf(expected));
        expect(pages.at(-1)!.items).toEqual([]);
      });

      it('returns everything that matches without paging, and nothing from other collections', async () => {
        const { store, collection } = await seeded();
        const result = await store.query<Estate>(collection);
        expect(idsOf(result.items).sort()).toEqual(idsOf([...ESTATES].sort(byId)));
        expect((await store.query(uniqueName('empty'))).total).toBe(0);
      });
    });

    describe('transactions and checkpoints', () => {
      it('commits documents and the checkpoint together', async () => {
        const store = await openStore();
        const [collection, projection] = [uniqueName('orgs'), uniqueName('projection')];
        expect(await store.loadCheckpoint(projection)).toBe(0n);
        const returned = await store.transaction(async (tx) => {
          await tx.put(collection, 'o1', { name: 'Org' });
          expect(await tx.get(collection, 'o1')).toEqual({ name: 'Org' });
          expect((await tx.query(collection)).total).toBe(1);
          await tx.saveCheckpoint(projection, 7n);
          return 'done';
        });
        expect(returned).toBe('done');
        expect(await store.get(collection, 'o1')).toEqual({ name: 'Org' });
        expect(await store.loadCheckpoint(projection)).toBe(7n);
      });

      it('rolls back documents and checkpoint when the function throws', async () => {
        const store = await openStore();
        const [collection, projection] = [uniqueName('orgs'), uniqueName('projection')];
        await store.transaction((tx) => tx.saveCheckpoint(projection, 3n));
        const failure = new Error('handler failed');
        const error = await rejection(
          store.transaction(async (tx) => {
            await tx.put(collection, 'o1', { name: 'Org' });
            await tx.saveCheckpoint(projection, 4n);
            throw failure;
          }),
        );
        expect(error).toBe(failure);
        expect(await store.get(collection, 'o1')).toBeNull();
        expect(await store.loadCheckpoint(projection)).toBe(3n);
      });

      it('never lets a read see a write that is later rolled back', async () => {
        const store = await openStore();
        const collection = uniqueName('orgs');
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let written!: () => void;
        const wrote = new Promise<void>((resolve) => (written = resolve));
        const failing = store.transaction(async (tx) => {
          await tx.put(collection, 'o1', { name: 'uncommitted' });
          written();
          await gate;
          throw new Error('abort');
        });
        await wrote;
        const read = store.get(collection, 'o1');
        const shared = readShared(store, collection, 'o1');
        release();
        await rejection(failing);
        expect(await read).toBeNull();
        expect(await shared).toBeNull();
        expect(await readShared(store, collection, 'o1')).toBeNull();
      });

      it('runs concurrent transactions one after the other', async () => {
        const store = await openStore();
        const collection = uniqueName('counters');
        const increment = () =>
          store.transaction(async (tx) => {
            const counter = (await tx.get<{ n: number }>(collection, 'c')) ?? { n: 0 };
            await new Promise((resolve) => setTimeout(resolve, 1));
            await tx.put(collection, 'c', { n: counter.n + 1 });
          });
        await Promise.all(Array.from({ length: 8 }, increment));
        expect(await store.get(collection, 'c')).toEqual({ n: 8 });
      });

      it('reset drops the projection’s collections and checkpoint and nothing else', async () => {
        const store = await openStore();
        const [mine, theirs, projection, other] = [uniqueName('mine'), uniqueName('theirs'), uniqueName('p'), uniqueName('p')];
        await store.transaction(async (tx) => {
          await tx.put(mine, 'a', { v: 1 });
          await tx.put(theirs, 'a', { v: 2 });
          await tx.saveCheckpoint(projection, 5n);
          await tx.saveCheckpoint(other, 9n);
        });
        expect(await readShared(store, mine, 'a')).toEqual({ v: 1 });
        await store.reset(projection, [mine]);
        expect((await store.query(mine)).total).toBe(0);
        expect(await readShared(store, mine, 'a')).toBeNull();
        expect(await store.get(theirs, 'a')).toEqual({ v: 2 });
        expect(await store.loadCheckpoint(projection)).toBe(0n);
        expect(await store.loadCheckpoint(other)).toBe(9n);
      });

      it('keeps documents and checkpoints after close and reopen', async () => {
        const storage = uniqueName('reads');
        const [collection, projection] = [uniqueName('orgs'), uniqueName('projection')];
        const first = await open(storage);
        await first.transaction(async (tx) => {
          await tx.put(collection, 'o1', { name: 'Org' });
          await tx.saveCheckpoint(projection, 12n);
        });
        await first.close();
        const reopened = await openStore(storage);
        expect(await reopened.get(collection, 'o1')).toEqual({ name: 'Org' });
        expect(await reopened.loadCheckpoint(projection)).toBe(12n);
      });
    });
  });
}
