import { afterEach, describe, expect, it } from 'vitest';
import type { LeaseStore } from '../ports/lease.ts';
import { rejection, uniqueName } from './contract-helpers.ts';

/**
 * Opens a lease store. Every store one factory opens competes with the others it opened (the
 * processes sharing one server; in memory, stores over one holder table).
 */
export type LeaseStoreFactory = () => Promise<LeaseStore>;

/** What every LeaseStore adapter must do; run it from the adapter's `*.int.spec.ts`. */
export function leaseStoreContract(name: string, open: LeaseStoreFactory): void {
  describe(`LeaseStore contract: ${name}`, () => {
    const opened: LeaseStore[] = [];
    const openStore = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('hands a name to exactly one of two competitors trying at the same time', async () => {
      const [a, b] = [await openStore(), await openStore()];
      const lease = uniqueName('lease');
      const [first, second] = await Promise.all([a.tryAcquire(lease), b.tryAcquire(lease)]);
      expect([first, second].filter((l) => l !== null)).toHaveLength(1);
      const holder = (first ?? second)!;
      expect(holder.name).toBe(lease);
      expect(holder.held).toBe(true);
      expect(holder.lost.aborted).toBe(false);
      // Still held, still refused, to either.
      expect(await a.tryAcquire(lease)).toBeNull();
      expect(await b.tryAcquire(lease)).toBeNull();
    });

    it('hands it over once the holder releases it, and tells the holder', async () => {
      const [a, b] = [await openStore(), await openStore()];
      const lease = uniqueName('lease');
      const held = (await a.tryAcquire(lease))!;
      expect(held).not.toBeNull();
      await held.release();
      expect(held.held).toBe(false);
      expect(held.lost.aborted).toBe(true);
      const taken = await b.tryAcquire(lease);
      expect(taken?.held).toBe(true);
      expect(await a.tryAcquire(lease)).toBeNull();
      await held.release(); // a second release of a lease given up changes nothing
      expect(await a.tryAcquire(lease)).toBeNull();
    });

    it('hands it over when the holder closes its store, and marks the holder lost', async () => {
      const [a, b] = [await openStore(), await openStore()];
      const lease = uniqueName('lease');
      const held = (await a.tryAcquire(lease))!;
      await a.close();
      expect(held.lost.aborted).toBe(true);
      expect((await b.tryAcquire(lease))?.held).toBe(true);
    });

    it('keeps names apart, and refuses a name its own store already holds', async () => {
      const a = await openStore();
      const [one, two] = [uniqueName('lease'), uniqueName('lease')];
      expect(await a.tryAcquire(one)).not.toBeNull();
      expect(await a.tryAcquire(two)).not.toBeNull();
      expect(await a.tryAcquire(one)).toBeNull();
    });

    it('refuses a malformed name with a clear error', async () => {
      const a = await openStore();
      expect(String(await rejection(a.tryAcquire('')))).toMatch(/invalid lease name/);
      expect(String(await rejection(a.tryAcquire('has space')))).toMatch(/invalid lease name/);
    });
  });
}
