import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPostgresReadStore, openSqliteReadStore, type ReadStore } from '@renopath/platform';
import { contextSchema } from '@renopath/platform/postgres/postgres-connection.ts';
import type { GatewayConfig } from './config.ts';
import { loadDownloadSecret } from './plugins/downloads.ts';

/** The gateway's own schema on a shared server (`renopath_gateway`), beside the contexts' ones. */
export const GATEWAY_SCHEMA = contextSchema('gateway');

/** What the gateway keeps under `<data dir>/gateway`, embedded or on its own. */
export async function openGatewayStorage(config: GatewayConfig) {
  const dir = join(config.dataDir, 'gateway');
  mkdirSync(dir, { recursive: true });
  const downloadSecret = await loadDownloadSecret(config.downloadSigningSecret, join(dir, 'download-signing.key'));
  const idempotencyStore = await openIdempotencyStore(config, dir);
  return { downloadSecret, idempotencyStore };
}

/**
 * Idempotency-Key records (docs/http-contract.md "Idempotency and read-your-writes"): gateway replicas behind one load balancer need one shared
 * store, the PostgreSQL server of RENOPATH_READ_STORE; otherwise (`sqlite`, or a read store the
 * gateway has no adapter of its own for) they stay in a file of this gateway's data dir.
 */
async function openIdempotencyStore(config: GatewayConfig, dir: string): Promise<ReadStore> {
  if (/^postgres(ql)?:\/\//.test(config.readStore))
    return openPostgresReadStore({ connectionString: config.readStore, schema: GATEWAY_SCHEMA });
  return openSqliteReadStore({ file: join(dir, 'idempotency.db') });
}
