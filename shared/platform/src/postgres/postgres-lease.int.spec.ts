import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { leaseStoreContract } from '../testing/lease.contract.ts';
import { uniqueName } from '../testing/contract-helpers.ts';
import { openPostgresLeaseStore } from './postgres-lease.ts';
import { postgresListening, testPostgresUrl } from './test-database.ts';

const reachable = await postgresListening();
if (!reachable)
  console.warn(`[skip] LeaseStore contract: postgres — nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`);

/** The backend holding lease `name`, found the way an operator would: in pg_locks. */
async function holderPid(admin: pg.Client, name: string): Promise<number | null> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND classid = hashtext('renopath-lease')::oid AND objid = hashtext($1)::oid`,
    [name],
  );
  return rows[0]?.pid ?? null;
}

describe.skipIf(!reachable)('PostgresLeaseStore', () => {
  leaseStoreContract('postgres', () => openPostgresLeaseStore({ connectionString: testPostgresUrl, heartbeatMs: 100 }));

  it('loses the lease at once when its connection is killed, and the server hands it to the next one', async () => {
    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    const [a, b] = [
      await openPostgresLeaseStore({ connectionString: testPostgresUrl, heartbeatMs: 100 }),
      await openPostgresLeaseStore({ connectionString: testPostgresUrl, heartbeatMs: 100 }),
    ];
    try {
      const name = uniqueName('lease');
      const held = (await a.tryAcquire(name))!;
      expect(held.held).toBe(true);
      expect(await b.tryAcquire(name)).toBeNull();
      const pid = await holderPid(admin, name);
      expect(pid).not.toBeNull();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await vi.waitFor(() => expect(held.lost.aborted).toBe(true), { timeout: 3000, interval: 10 });
      expect(held.held).toBe(false);
      const taken = await b.tryAcquire(name);
      expect(taken?.held).toBe(true);
      // The first store opens a new connection for its next try, and is refused while b holds it.
      await vi.waitFor(async () => expect(await a.tryAcquire(name)).toBeNull(), { timeout: 3000, interval: 50 });
    } finally {
      await a.close();
      await b.close();
      await admin.end();
    }
  });

  it('frees the lock on the server when released, so a plain session can take it', async () => {
    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    const store = await openPostgresLeaseStore({ connectionString: testPostgresUrl });
    try {
      const name = uniqueName('lease');
      const held = (await store.tryAcquire(name))!;
      expect(await holderPid(admin, name)).not.toBeNull();
      await held.release();
      expect(await holderPid(admin, name)).toBeNull();
    } finally {
      await store.close();
      await admin.end();
    }
  });
});
