import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { runProjection } from '../projection-runner.ts';
import { openPostgresEventStore } from '../postgres/postgres-event-store.ts';
import { openPostgresReadStore } from '../postgres/postgres-read-store.ts';
import { contextSchema } from '../postgres/postgres-connection.ts';
import { postgresListening, testPostgresUrl } from '../postgres/test-database.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import {
  applyCounter,
  AUDIT,
  COUNTED_PREFIX,
  COUNTERS,
  COUNTERS_PROJECTION,
  type AddReply,
  type CounterDoc,
} from '../testing/replica-context.ts';
import { openBus, platformConfig, PlatformEnv } from './adapters.ts';
import { natsListening, testNatsUrl } from '../testing/listening.ts';
import { findTsx } from '../testing/tsx.ts';

const natsUrl = testNatsUrl;

const reachable = (await postgresListening()) && (await natsListening(natsUrl));
if (!reachable)
  console.warn(
    `[skip] replicas under SIGKILL — needs ${testPostgresUrl} and ${natsUrl} (RENOPATH_TEST_POSTGRES_URL, RENOPATH_TEST_NATS_URL)`,
  );

const here = dirname(fileURLToPath(import.meta.url));
const childScript = join(here, '..', 'testing', 'replica-child.ts');

const run = randomUUID().replaceAll('-', '').slice(0, 10);
const context = `repk_${run}`;
const env = {
  RENOPATH_EVENT_STORE: testPostgresUrl,
  RENOPATH_READ_STORE: testPostgresUrl,
  RENOPATH_BUS: natsUrl,
  RENOPATH_NATS_STREAM: `RENOPATH_TEST_REPK_${run}`,
  RENOPATH_NATS_PREFIX: `repk${run}`,
  RENOPATH_LEASE_RETRY_MS: '200',
};

interface Child {
  proc: ChildProcess;
  lines(): string[];
  exited: Promise<NodeJS.Signals | null>;
}
const children: Child[] = [];

function startChild(label: string): Child {
  // Its own process group: tsx runs the script in a grandchild, and the kill must reach it.
  const proc = spawn(findTsx(here), [childScript, context, label], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.once('close', (_, signal) => resolve(signal)));
  const child = { proc, lines: () => stdout.split('\n').slice(0, -1), exited, stderr: () => stderr };
  children.push(child);
  return child;
}
const state = (child: Child) =>
  child
    .lines()
    .filter((l) => l === 'leading' || l === 'following')
    .at(-1);
async function ready(child: Child): Promise<void> {
  await vi.waitFor(
    () => {
      if (child.proc.exitCode !== null) throw new Error(`replica exited (${child.proc.exitCode})`);
      expect(child.lines()).toContain('ready');
      expect(state(child)).toBeDefined();
    },
    { timeout: 30_000, interval: 50 },
  );
}

describe.skipIf(!reachable)('replicas of a context under SIGKILL (PostgreSQL, NATS)', () => {
  afterAll(async () => {
    for (const c of children)
      if (c.proc.pid && c.proc.exitCode === null && c.proc.signalCode === null) process.kill(-c.proc.pid, 'SIGKILL');
    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${contextSchema(context)}" CASCADE`);
    await admin.end();
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(env.RENOPATH_NATS_STREAM).catch(() => false);
    await nc.close();
  });

  it('loses no acknowledged write, doubles none, and ends with views equal to a clean rebuild', { timeout: 120_000 }, async () => {
    const first = startChild('a');
    await ready(first);
    const second = startChild('b');
    await ready(second);
    expect([state(first), state(second)].sort()).toEqual(['following', 'leading']);
    const [leader, follower] = state(first) === 'leading' ? [first, second] : [second, first];

    const platform = platformConfig(PlatformEnv.parse(env));
    const client = await openBus(platform, 'replica-kill-client');
    const published: string[] = [];
    const observed = await client.consume(
      `${context}-observer`,
      { subjects: [`evt.${context}.>`] },
      async (e) => void published.push(e.event_id),
    );
    const acked: AddReply[] = [];
    const streams = ['counter-1', 'counter-2', 'counter-3', 'counter-4', 'other-1'];
    let writing = true;
    let failures = 0;
    // Writers under load: only an answered request counts as acknowledged.
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        try {
          acked.push(
            await client.request<AddReply>(`cmd.${context}.add`, { stream: streams[(w + i) % streams.length] }, { timeoutMs: 3_000 }),
          );
        } catch {
          failures += 1;
        }
      }
    });
    try {
      await vi.waitFor(() => expect(acked.length).toBeGreaterThan(60), { timeout: 30_000, interval: 20 });
      process.kill(-leader.proc.pid!, 'SIGKILL');
      expect(await leader.exited).toBe('SIGKILL');
      await vi.waitFor(() => expect(state(follower)).toBe('leading'), { timeout: 15_000, interval: 20 });
      const atTakeover = acked.length;
      await vi.waitFor(() => expect(acked.length).toBeGreaterThan(atTakeover + 40), { timeout: 30_000, interval: 20 });
      // The killed replica comes back, as an orchestrator restarts it, and follows.
      const restarted = startChild(leader === first ? 'a2' : 'b2');
      await ready(restarted);
      expect(state(restarted)).toBe('following');
      const atRestart = acked.length;
      await vi.waitFor(() => expect(acked.length).toBeGreaterThan(atRestart + 40), { timeout: 30_000, interval: 20 });
      expect(new Set(acked.map((r) => r.replica)).size).toBeGreaterThanOrEqual(3);
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    const eventStore = await openPostgresEventStore({ connectionString: testPostgresUrl, schema: contextSchema(context) });
    const readStore = await openPostgresReadStore({ connectionString: testPostgresUrl, schema: contextSchema(context) });
    try {
      const logged = await eventStore.readAll();
      const ids = logged.map((e) => e.event_id);
      expect(new Set(ids).size).toBe(ids.length);
      const stored = new Set(ids);
      expect(acked.filter((r) => !stored.has(r.event_id))).toEqual([]);
      // Each counted answer showed its own write (read your writes on whichever replica answered).
      for (const reply of acked) if (reply.n !== null) expect(reply.n).toBeGreaterThanOrEqual(1);

      const head = await eventStore.headPosition();
      // A batch's checkpoint is its last event, which may be a skipped one: at or past the last counted event.
      const lastCounted = logged.filter((e) => e.stream.startsWith(COUNTED_PREFIX)).at(-1)!.position;
      await vi.waitFor(async () => expect(await readStore.loadCheckpoint(COUNTERS_PROJECTION)).toBeGreaterThanOrEqual(lastCounted), {
        timeout: 15_000,
        interval: 50,
      });
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
      await clean.waitFor(head, 15_000);
      const strip = (docs: CounterDoc[]) => docs.map(({ n, event_ids }) => ({ n, event_ids }));
      const sort = [{ field: '_id', order: 'ASC' as const }];
      expect(strip((await readStore.query<CounterDoc>(COUNTERS, { sort })).items)).toEqual(
        strip((await rebuilt.query<CounterDoc>(COUNTERS, { sort })).items),
      );
      await clean.close();
      await rebuilt.close();

      // The relays put every logged event on the bus, none twice (a re-sent one is dropped by id).
      await vi.waitFor(() => expect(new Set(published)).toEqual(stored), { timeout: 15_000, interval: 50 });
      expect(published.length).toBe(stored.size);
      // The reactor, taken over too, handled every event at least once (one in flight at the kill comes back after the ack wait).
      await vi.waitFor(async () => expect((await readStore.query(AUDIT)).total).toBe(stored.size), { timeout: 45_000, interval: 200 });
      console.info(`[replicas-kill] ${acked.length} acknowledged, ${failures} unanswered around the kill, ${logged.length} in the log`);
    } finally {
      await observed.close();
      await client.close();
      await eventStore.close();
      await readStore.close();
    }
  });
});
