import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { natsLeaseBucket } from '../nats/nats-lease.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { platformConfig, PlatformEnv } from './adapters.ts';
import { FENCE_COLLECTION } from './context-lease.ts';
import { openContextLeadership } from './context-lease-store.ts';
import { natsListening, testNatsUrl } from '../testing/listening.ts';

const natsUrl = testNatsUrl;
const reachable = await natsListening(natsUrl);
if (!reachable) console.warn(`[skip] context leadership over NATS — nothing listens on ${natsUrl} (set RENOPATH_TEST_NATS_URL)`);

const run = randomUUID().replaceAll('-', '').slice(0, 12);
const prefix = `lease${run}`;
const dir = mkdtempSync(join(tmpdir(), 'renopath-nats-lease-'));
const log = pino({ level: 'silent' });

describe.skipIf(!reachable)('context leadership with EventStoreDB/MongoDB stores over a NATS bus', () => {
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(`KV_${natsLeaseBucket(prefix)}`).catch(() => false);
    await nc.close();
  });

  it('lets one replica lead, fences with the read store, and hands over when it stops', async () => {
    // Only the lease is opened here: the store URLs choose it, no EventStoreDB or MongoDB is reached.
    const config = platformConfig(
      PlatformEnv.parse({
        RENOPATH_EVENT_STORE: 'kurrentdb://127.0.0.1:2113?tls=false',
        RENOPATH_READ_STORE: 'mongodb://127.0.0.1:27017/renopath',
        RENOPATH_BUS: natsUrl,
        RENOPATH_NATS_PREFIX: prefix,
        RENOPATH_LEASE_RETRY_MS: '50',
        RENOPATH_LEASE_TTL_MS: '2000',
      }),
    );
    const readStore = openSqliteReadStore({ file: join(dir, 'read.db') });
    const a = await openContextLeadership(config, 'things', log, readStore);
    const b = await openContextLeadership(config, 'things', log, readStore);
    try {
      expect([a.leading, b.leading]).toEqual([true, false]);
      expect([a.shared, b.shared]).toEqual([true, true]);
      // The holder recorded itself in the read store, where its commits are fenced.
      expect(await readStore.transaction((tx) => tx.get(FENCE_COLLECTION, 'renopath_things:background'))).not.toBeNull();
      await readStore.transaction((tx) => a.fence(tx));
      await a.close();
      await vi.waitFor(() => expect(b.leading).toBe(true), { timeout: 5000, interval: 20 });
      await readStore.transaction((tx) => b.fence(tx));
    } finally {
      await a.close();
      await b.close();
      await readStore.close();
    }
  });
});
