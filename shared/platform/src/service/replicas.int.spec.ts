import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { runProjection } from '../projection-runner.ts';
import { postgresListening, testPostgresUrl } from '../postgres/test-database.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import {
  applyCounter,
  AUDIT,
  COUNTED_PREFIX,
  COUNTERS,
  COUNTERS_PROJECTION,
  startReplica,
  type AddReply,
  type CounterDoc,
  type Replica,
} from '../testing/replica-context.ts';
import { openBus, platformConfig, PlatformEnv } from './adapters.ts';
import { settleAcrossContexts } from './settlement.ts';
import { natsListening, testNatsUrl } from '../testing/listening.ts';

const natsUrl = testNatsUrl;

const reachable = (await postgresListening()) && (await natsListening(natsUrl));
if (!reachable)
  console.warn(
    `[skip] replicas over PostgreSQL and NATS — needs ${testPostgresUrl} and ${natsUrl} (RENOPATH_TEST_POSTGRES_URL, RENOPATH_TEST_NATS_URL)`,
  );

const run = randomUUID().replaceAll('-', '').slice(0, 10);
const context = `rep_${run}`;
const env = {
  RENOPATH_EVENT_STORE: testPostgresUrl,
  RENOPATH_READ_STORE: testPostgresUrl,
  RENOPATH_BUS: natsUrl,
  RENOPATH_NATS_STREAM: `RENOPATH_TEST_REP_${run}`,
  RENOPATH_NATS_PREFIX: `rep${run}`,
  RENOPATH_LEASE_RETRY_MS: '100',
};
const platform = platformConfig(PlatformEnv.parse(env));
const log = pino({ level: 'silent' });

/** The backend holding the context's lease (pg_locks), so the test can kill that connection alone. */
async function leaseHolderPid(admin: pg.Client): Promise<number | null> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND classid = hashtext('renopath-lease')::oid AND objid = hashtext($1)::oid`,
    [`renopath_${context}:background`],
  );
  return rows[0]?.pid ?? null;
}

describe.skipIf(!reachable)('two replicas of a context over PostgreSQL and NATS', () => {
  const replicas: Replica[] = [];
  afterAll(async () => {
    for (const r of replicas) await r.close().catch(() => undefined);
    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "renopath_${context}" CASCADE`);
    await admin.end();
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(env.RENOPATH_NATS_STREAM).catch(() => false);
    await nc.close();
  });

  it('share commands, run the background work once, and hand it over when the holder loses its lease', { timeout: 90_000 }, async () => {
    const a = await startReplica(platform, context, 'a', log);
    replicas.push(a);
    const b = await startReplica(platform, context, 'b', log);
    replicas.push(b);
    expect(a.runtime.leadership.leading).toBe(true);
    expect(b.runtime.leadership.leading).toBe(false);
    expect(a.runtime.leadership.shared).toBe(true);

    // An observer of the bus, as another context would be: what the relay published, how often.
    const client = await openBus(platform, 'replica-client');
    const published: string[] = [];
    const observed = await client.consume(
      `${context}-observer`,
      { subjects: [`evt.${context}.>`] },
      async (e) => void published.push(e.event_id),
    );
    const acked: AddReply[] = [];
    const streams = ['counter-1', 'counter-2', 'counter-3', 'other-1'];
    const add = async (i: number) => {
      const stream = streams[i % streams.length]!;
      const reply = await client.request<AddReply>(`cmd.${context}.add`, { stream }, { timeoutMs: 15_000 });
      acked.push(reply);
      return { stream, reply };
    };

    try {
      // Read your writes on either replica: each answer already counts its own event.
      const perStream = new Map<string, number>();
      for (let i = 0; i < 40; i++) {
        const { stream, reply } = await add(i);
        if (!stream.startsWith(COUNTED_PREFIX)) continue;
        perStream.set(stream, (perStream.get(stream) ?? 0) + 1);
        expect(reply.n).toBe(perStream.get(stream));
      }
      const servedBy = new Set(acked.map((r) => r.replica));
      expect(servedBy).toEqual(new Set(['a', 'b']));
      // Settle (cross-context read your writes) is answered by the holder, which knows its relay and reactors.
      expect(
        await settleAcrossContexts({ bus: client, contexts: [context], correlationId: acked.at(-1)!.event_id, timeoutMs: 10_000 }),
      ).toBe(true);
      const before = (await a.runtime.storage.readStore.query<CounterDoc>(COUNTERS)).items;
      expect(before.flatMap((d) => d.applied_by).every((label) => label === 'a')).toBe(true);
      // Only the holder's relay published (counted before the bus's duplicate filter could hide a second one).
      expect(b.published).toEqual([]);
      expect(new Set(a.published).size).toBe(a.published.length);
      // The reactor (a durable consumer through runtime.bus) ran on the holder only.
      await vi.waitFor(async () => expect((await a.runtime.storage.readStore.query(AUDIT)).total).toBe(40), {
        timeout: 10_000,
        interval: 20,
      });
      const audited = (await a.runtime.storage.readStore.query<{ handled_by: string[] }>(AUDIT)).items;
      expect(new Set(audited.flatMap((d) => d.handled_by))).toEqual(new Set(['a']));

      // The holder's lease connection dies (as when its process is cut off from the server), under a write load.
      const admin = new pg.Client({ connectionString: testPostgresUrl });
      await admin.connect();
      const load = Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; i < 15; i++) await add(w * 100 + i);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await admin.query('SELECT pg_terminate_backend($1)', [await leaseHolderPid(admin)]);
      await admin.end();
      await vi.waitFor(() => expect(b.runtime.leadership.leading).toBe(true), { timeout: 10_000, interval: 20 });
      expect(a.runtime.leadership.leading).toBe(false);
      await load;
      for (let i = 0; i < 8; i++) await add(1000 + i);
      expect(acked).toHaveLength(40 + 60 + 8);

      // Nothing lost, nothing doubled: the views equal a clean rebuild of the log.
      const { eventStore, readStore } = b.runtime.storage;
      const head = await eventStore.headPosition();
      await b.projection.waitFor(head, 10_000);
      await a.projection.waitFor(head, 10_000); // the follower sees the same through the checkpoint
      const logged = await eventStore.readAll();
      expect(new Set(logged.map((e) => e.event_id))).toEqual(new Set(acked.map((r) => r.event_id)));
      const rebuilt = openSqliteReadStore({ file: ':memory:' });
      const clean = runProjection({
        name: COUNTERS_PROJECTION,
        eventStore,
        readStore: rebuilt,
        collections: [COUNTERS],
        streamPrefixes: [COUNTED_PREFIX],
        handle: (e, tx) => applyCounter(e, tx, 'rebuild'),
        leadership: null,
      });
      await clean.waitFor(head, 10_000);
      const strip = (docs: CounterDoc[]) => docs.map(({ n, event_ids }) => ({ n, event_ids }));
      const views = (await readStore.query<CounterDoc>(COUNTERS, { sort: [{ field: '_id', order: 'ASC' }] })).items;
      expect(strip(views)).toEqual(strip((await rebuilt.query<CounterDoc>(COUNTERS, { sort: [{ field: '_id', order: 'ASC' }] })).items));
      expect(views.flatMap((d) => d.applied_by)).toContain('b');
      await clean.close();
      await rebuilt.close();

      // The relay (a's, then b's from the shared checkpoint) put every event on the bus once.
      await vi.waitFor(() => expect(published.length).toBeGreaterThanOrEqual(logged.length), { timeout: 15_000, interval: 50 });
      expect(published.length).toBe(logged.length);
      // Across the takeover the relays re-sent at most what the last holder had published but not checkpointed.
      const sent = [...a.published, ...b.published];
      expect(new Set(sent)).toEqual(new Set(logged.map((e) => e.event_id)));
      expect(sent.length - logged.length).toBeLessThanOrEqual(1);
      expect(new Set(published)).toEqual(new Set(logged.map((e) => e.event_id)));
      // Every event reached the reactor of whoever held the lease (at least once: a takeover may repeat one).
      await vi.waitFor(async () => expect((await readStore.query(AUDIT)).total).toBe(logged.length), { timeout: 15_000, interval: 50 });
      expect(
        await settleAcrossContexts({ bus: client, contexts: [context], correlationId: acked.at(-1)!.event_id, timeoutMs: 10_000 }),
      ).toBe(true);

      // A closing holder hands over at once: a takes the lease back and the views keep up.
      await b.close();
      replicas.splice(replicas.indexOf(b), 1);
      await vi.waitFor(() => expect(a.runtime.leadership.leading).toBe(true), { timeout: 10_000, interval: 20 });
      const { stream, reply } = await add(2000);
      expect(reply.replica).toBe('a');
      expect(stream.startsWith(COUNTED_PREFIX) ? reply.n : null).not.toBeNull();
    } finally {
      await observed.close();
      await client.close();
    }
  });
});
