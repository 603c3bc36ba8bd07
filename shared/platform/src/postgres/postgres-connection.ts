import pg from 'pg';

/** A context's schema name: lower-case letters, digits and `_`, so it is safe to quote and to use in channel names. */
export function assertSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(`invalid PostgreSQL schema name "${schema}": lower-case letters, digits and _ (at most 63)`);
  }
  return schema;
}

/** `renopath_<context>`: one schema per bounded context on a shared server. */
export function contextSchema(context: string): string {
  return assertSchemaName(`renopath_${context.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`);
}

/** How long opening a connection may take before the query fails (and its request answers 503). */
const CONNECT_TIMEOUT_MS = 5_000;

export function openPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client whose server connection drops emits 'error' on the pool; unhandled it would crash
  // the process. The pool discards that client and the next query opens a fresh one.
  pool.on('error', () => undefined);
  // A client checked out of the pool has no listener of the pool's: a server that stops between two
  // queries of a transaction (or while a loop holds the client) would crash the process with an
  // unhandled 'error'. The failing query rejects on its own; the broken client is dropped on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * Runs DDL once per schema even when several processes open the same context at the same time:
 * `CREATE ... IF NOT EXISTS` alone races on the catalog's unique indexes.
 */
export async function ensureSchema(pool: pg.Pool, schema: string, ddl: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`renopath-ddl:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(ddl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * `BEGIN`, `fn`, `COMMIT` on one pooled connection; `ROLLBACK` when `fn` throws. With `lock`, the
 * transaction first takes that advisory lock (held to its end), in the same round trip as `BEGIN`.
 */
export async function inTransaction<R>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<R>, lock?: string): Promise<R> {
  // Inlined as a literal (a simple query takes no parameters): our lock names never hold a quote.
  if (lock?.includes("'")) throw new TypeError(`invalid lock name ${lock}`);
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(lock === undefined ? 'BEGIN' : `BEGIN; SELECT pg_advisory_xact_lock(hashtext('${lock}'))`);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
