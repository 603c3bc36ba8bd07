import { describe, expect, it } from 'vitest';
import type { HeldLease } from '../ports/lease.ts';
import { leaseStoreContract } from '../testing/lease.contract.ts';
import { createMemoryLeaseStore } from './memory-lease.ts';

const holders = new Map<string, HeldLease>();
leaseStoreContract('memory', async () => createMemoryLeaseStore(holders));

describe('createMemoryLeaseStore', () => {
  it('leads at once on a store of its own (one process over SQLite files)', async () => {
    const store = createMemoryLeaseStore();
    expect((await store.tryAcquire('renopath_estates:background'))?.held).toBe(true);
    await store.close();
  });
});
