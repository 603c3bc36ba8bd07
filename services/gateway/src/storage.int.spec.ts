import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresReadStore, SqliteReadStore } from '@renopath/platform';
import { postgresListening, testPostgresUrl } from '@renopath/platform/postgres/test-database.ts';
import { loadGatewayConfig } from './config.ts';
import { IdempotencyKeys } from './plugins/idempotency.ts';
import { openGatewayStorage } from './storage.ts';

const reachable = await postgresListening();
if (!reachable)
  console.warn(
    `[skip] gateway replicas sharing Idempotency-Key records — nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`,
  );

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-gateway-storage-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A gateway replica's storage, opened as main.ts opens it: its own data dir, the shared read store. */
const replica = (env: Record<string, string>) =>
  openGatewayStorage(loadGatewayConfig({ LOG_LEVEL: 'silent', RENOPATH_DATA_DIR: dataDir(), ...env }));

describe('gateway storage', () => {
  it('keeps Idempotency-Key records in a file of its own by default', async () => {
    const { idempotencyStore } = await replica({});
    expect(idempotencyStore).toBeInstanceOf(SqliteReadStore);
    await idempotencyStore.close();
  });

  describe.skipIf(!reachable)('two gateway replicas with RENOPATH_READ_STORE=postgres://', () => {
    it("share the records: a key replayed on the second answers the first one's reply, a running one is 409 there", async () => {
      const [first, second] = [
        await replica({ RENOPATH_READ_STORE: testPostgresUrl }),
        await replica({ RENOPATH_READ_STORE: testPostgresUrl }),
      ];
      expect(first.idempotencyStore).toBeInstanceOf(PostgresReadStore);
      // As main.ts builds them: not exclusive, since other gateways use the store.
      const [a, b] = [new IdempotencyKeys(first.idempotencyStore), new IdempotencyKeys(second.idempotencyStore)];
      const [client, other] = [`client-${randomUUID()}`, `client-${randomUUID()}`];
      const fingerprint = IdempotencyKeys.fingerprint(['POST', '/v1/estates', '{"name":"Home"}']);
      try {
        const claim = await a.claim(client, 'key-1', fingerprint);
        expect(claim.kind).toBe('new');
        // Still running on the first gateway: the second refuses a duplicate instead of doing the work again.
        await expect(b.claim(client, 'key-1', fingerprint)).rejects.toMatchObject({ statusCode: 409 });
        const reply = { id: 'estate-1', name: 'Home' };
        await a.complete((claim as { id: string }).id, 201, reply);

        expect(await b.claim(client, 'key-1', fingerprint)).toEqual({ kind: 'replay', status: 201, reply });
        await expect(
          b.claim(client, 'key-1', IdempotencyKeys.fingerprint(['POST', '/v1/estates', '{"name":"Other"}'])),
        ).rejects.toMatchObject({ statusCode: 422 });
        // Another client's key of the same name is its own.
        expect((await b.claim(other, 'key-1', fingerprint)).kind).toBe('new');
      } finally {
        a.close();
        b.close();
        // The shared schema outlives the test: leave none of its records behind.
        await first.idempotencyStore.transaction(async (tx) => {
          for (const id of [client, other]) await tx.delete('idempotency_keys', `${id}:key-1`);
        });
        await first.idempotencyStore.close();
        await second.idempotencyStore.close();
      }
    });
  });
});
