import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { tcpListening } from '../testing/listening.ts';

/** The server the PostgreSQL suites use; they skip, loudly, when nothing listens there. */
export const testPostgresUrl = process.env.RENOPATH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether a PostgreSQL server listens at `address` (suites skip, saying so, when none does). */
export const postgresListening = (address = testPostgresUrl): Promise<boolean> => tcpListening(address, 5432);

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
        const { rows } = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)`, [
          `${prefix}_`,
        ]);
        for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
