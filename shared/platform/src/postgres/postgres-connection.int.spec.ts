import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isEngineUnavailable } from '../ports/engine.ts';
import { inTransaction, openPool } from './postgres-connection.ts';
import { postgresListening, testPostgresUrl } from './test-database.ts';

const reachable = await postgresListening();
if (!reachable) console.warn(`[skip] PostgreSQL pool: nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`);

/**
 * The server ends a session (a restart, a failover, an administrator) while the pool has it checked
 * out between two queries: node-postgres then emits 'error' on the client, which kills the process
 * when nobody listens. Here the session is ended with pg_terminate_backend, on this test's own session only.
 */
describe.skipIf(!reachable)('openPool', () => {
  const pool = reachable ? openPool(testPostgresUrl, 2) : null;
  afterAll(async () => pool?.end());

  async function terminate(pid: number) {
    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
  }

  it('survives a session ended while checked out: the next query says the store is unavailable, the one after works', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const client = await pool!.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate(rows[0]!.pid);
      // node-postgres learns of it from the socket: give the 'error' event its turn.
      await new Promise((r) => setTimeout(r, 200));
      const failed = await client.query('SELECT 1').catch((e: unknown) => e);
      expect(isEngineUnavailable(failed), String(failed)).toBe(true);
      client.release(failed instanceof Error ? failed : undefined);
      expect((await pool!.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it('survives a session ended inside a transaction: the transaction fails as unavailable', async () => {
    const failed = await inTransaction(pool!, async (client) => {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate(rows[0]!.pid);
      await new Promise((r) => setTimeout(r, 200));
      await client.query('SELECT 1');
    }).catch((e: unknown) => e);
    expect(isEngineUnavailable(failed), String(failed)).toBe(true);
    expect((await pool!.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
