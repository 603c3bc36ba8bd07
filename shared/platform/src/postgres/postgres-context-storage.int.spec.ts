import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_STREAM } from '../ports/event-store.ts';
import { newEvent } from '../testing/contract-helpers.ts';
import { openBlobStore, openContextStorage, platformConfig, PlatformEnv } from '../service/adapters.ts';
import { PostgresEventStore } from './postgres-event-store.ts';
import { PostgresReadStore } from './postgres-read-store.ts';
import { postgresListening, testPostgresUrl } from './test-database.ts';

const reachable = await postgresListening();
if (!reachable) console.warn(`[skip] PostgreSQL context storage — nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`);

const context = `test_${randomUUID().replaceAll('-', '').slice(0, 10)}`;

describe.skipIf(!reachable)('openContextStorage with postgres:// URLs', () => {
  afterAll(async () => {
    const client = new pg.Client({ connectionString: testPostgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "renopath_${context}" CASCADE`);
    await client.end();
  });

  it("opens the PostgreSQL adapters in the context's own schema", async () => {
    const config = platformConfig(PlatformEnv.parse({ RENOPATH_EVENT_STORE: testPostgresUrl, RENOPATH_READ_STORE: testPostgresUrl }));
    const storage = await openContextStorage(config, context);
    expect(storage.eventStore).toBeInstanceOf(PostgresEventStore);
    expect(storage.readStore).toBeInstanceOf(PostgresReadStore);
    await storage.eventStore.append('estate-1', [newEvent()], NO_STREAM);
    await storage.checkpoints.save('relay', 1n);
    await storage.readStore.transaction((tx) => tx.put('estates', 'estate-1', { name: 'Home' }));
    await storage.close();

    const client = new pg.Client({ connectionString: testPostgresUrl });
    await client.connect();
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "renopath_${context}".events`);
    await client.end();
    expect(rows[0]!.n).toBe('1');
  });

  it('names the accepted values when given another, before anything is opened', () => {
    // The settings are checked when they are read (platform-env.ts), so a wrong one never reaches an adapter.
    expect(() => PlatformEnv.parse({ RENOPATH_EVENT_STORE: 'mysql://x' })).toThrow(
      /RENOPATH_EVENT_STORE[\s\S]*expected \\"sqlite\\", postgres:\/\/.* or kurrentdb:\/\//,
    );
    expect(() => PlatformEnv.parse({ RENOPATH_READ_STORE: 'redis://x' })).toThrow(
      /RENOPATH_READ_STORE[\s\S]*expected \\"sqlite\\", postgres:\/\/.* or mongodb:\/\//,
    );
  });

  it('needs a MongoDB server for GridFS blobs, and names the accepted blob stores', async () => {
    await expect(openBlobStore(platformConfig(PlatformEnv.parse({ RENOPATH_BLOB_STORE: 'gridfs' })))).rejects.toThrow(
      /gridfs needs RENOPATH_MONGO_URL/,
    );
    expect(() => PlatformEnv.parse({ RENOPATH_BLOB_STORE: 's3' })).toThrow(/RENOPATH_BLOB_STORE[\s\S]*expected \\"fs\\" or \\"gridfs\\"/);
  });
});
