import { assertLeaseName, HeldLease, type Lease, type LeaseStore } from '../ports/lease.ts';

/**
 * Leases inside one process, for stores only one process opens (SQLite files, embedded mode): the
 * one context runtime there is always the holder. Stores given the same `holders` set compete.
 */
export function createMemoryLeaseStore(holders: Map<string, HeldLease> = new Map()): LeaseStore {
  const mine = new Set<HeldLease>();
  let closed = false;
  return {
    async tryAcquire(name: string): Promise<Lease | null> {
      assertLeaseName(name);
      if (closed) throw new Error('lease store is closed');
      if (holders.get(name)?.held) return null;
      const lease: HeldLease = new HeldLease(name, async () => {
        if (holders.get(name) === lease) holders.delete(name);
        mine.delete(lease);
      });
      holders.set(name, lease);
      mine.add(lease);
      return lease;
    },
    async close() {
      closed = true;
      for (const lease of [...mine]) await lease.release();
    },
  };
}
