import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createMemoryBus, openFsBlobStore } from '@renopath/platform';
import { buildGateway } from '../app.ts';
import { loadGatewayConfig } from '../config.ts';

/**
 * Tests: `/openapi.json` (or another document path) as a gateway with every context's routes and
 * the admin API serves it. No service runs behind it: the document needs the route table only.
 */
export async function servedDocument(path = '/openapi.json'): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-openapi-'));
  const bus = createMemoryBus();
  const blobs = await openFsBlobStore({ root: dir });
  const { app } = buildGateway({
    bus,
    blobs,
    downloadSecret: Buffer.alloc(32, 7),
    logger: pino({ level: 'silent' }),
    config: loadGatewayConfig({
      LOG_LEVEL: 'silent',
      RENOPATH_ADMIN_TOKEN: 'openapi-test-admin-token',
      RENOPATH_PUBLIC_URL: 'https://renopath.test',
    }),
  });
  try {
    const res = await app.inject({ method: 'GET', url: path });
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
    return res.json();
  } finally {
    await app.close();
    await bus.close();
    await blobs.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
