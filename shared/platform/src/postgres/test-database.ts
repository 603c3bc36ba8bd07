import { randomUUID } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import pg from 'pg';

/** The server the PostgreSQL suites use; they skip, loudly, when nothing listens there. */
export const testPostgresUrl = process.env.RENOPATH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A plain TCP connect, so a machine without PostgreSQL skips the suites instead of failing them. */
export function postgresListening(address = testPostgresUrl): Promise<boolean> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve) => {
    const socket = connectTcp({ host: hostname || '127.0.0.1', port: Number(port || 5432), timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * Schemas of one test run: each storage name gets its own (`renopath_test_<run>_<storage>`), and
 * `drop()` removes every schema of the run, so runs on one server never meet or leave anything behind.
 */
export function testSchemas(label: string) {
  const prefix = `renopath_test_${label}_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  return {
    prefix,
    schemaOf: (storage: string) => `${prefix}_${storage.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63),
    async drop(): Promise<void> {
      const client = new pg.Client({ connectionString: testPostgresUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ nspname: string }>(
          `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)`,
          [`${prefix}_`],
        );
        for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
