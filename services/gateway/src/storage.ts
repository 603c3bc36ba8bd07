import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteReadStore } from '@renopath/platform';
import type { GatewayConfig } from './config.ts';
import { loadDownloadSecret } from './http/signed-links.ts';

/** What the gateway keeps under `<data dir>/gateway`, embedded or on its own. */
export async function openGatewayStorage(config: GatewayConfig) {
  const dir = join(config.dataDir, 'gateway');
  mkdirSync(dir, { recursive: true });
  const downloadSecret = await loadDownloadSecret(config.downloadSigningSecret, join(dir, 'download-signing.key'));
  // Idempotency-Key records (API.md 6): gateway replicas behind one load balancer need one shared store.
  const idempotencyStore = openSqliteReadStore({ file: join(dir, 'idempotency.db') });
  return { downloadSecret, idempotencyStore };
}
