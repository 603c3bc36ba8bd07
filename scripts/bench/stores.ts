import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ANY,
  runProjection,
  type EventStore,
  type NewEvent,
  type ReadStore,
  type RecordedEvent,
  type ReadStoreTx,
} from '@renopath/platform';
import { openSqliteEventStore } from '@renopath/platform/sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from '@renopath/platform/sqlite/sqlite-read-store.ts';
import { openPostgresEventStore } from '@renopath/platform/postgres/postgres-event-store.ts';
import { openPostgresReadStore } from '@renopath/platform/postgres/postgres-read-store.ts';
import { postgresListening, testPostgresUrl, testSchemas } from '@renopath/platform/postgres/test-database.ts';

/**
 * Event and read stores, SQLite (FULL and NORMAL) and PostgreSQL in one run: append throughput
 * (events/s) of single-event appends and of batches, then rebuild throughput: the whole log read back
 * through `subscribeToAll` into a read-store projection (a per-stream ledger: get + put per event),
 * once through `runProjection` (as services run it: a backlog in transactions of up to 500 events) and once
 * in transactions of REBUILD_BATCH events (what a batching rebuild would reach). Target for an
 * embedded rebuild: 50k events/s. PostgreSQL is `RENOPATH_TEST_POSTGRES_URL` (default
 * postgres@127.0.0.1:5432), in a schema made for the run and dropped after; skipped when unreachable.
 */
const SINGLE = Number(process.env['BENCH_STORE_SINGLE_APPENDS'] ?? 2000);
const BATCHED = Number(process.env['BENCH_STORE_BATCHED_EVENTS'] ?? 20_000);
const BATCH_SIZE = 100;
const REBUILD_BATCH = 500;
const STREAMS = 200;
const REBUILD_TARGET = 50_000;

let clock = Date.UTC(2026, 0, 1);
function event(i: number): NewEvent {
  clock += 1000;
  return {
    event_id: randomUUID(),
    type: 'AmountBooked',
    data: { amount: i % 97, note: 'bench' },
    metadata: { actor: { user_id: 'bench', client_id: null }, correlation_id: randomUUID(), causation_id: null },
    occurred_at: new Date(clock).toISOString(),
  };
}

interface Ledger {
  events: number;
  balance: number;
}
async function project(e: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const entry = (await tx.get<Ledger>('ledger', e.stream)) ?? { events: 0, balance: 0 };
  await tx.put<Ledger>('ledger', e.stream, { events: entry.events + 1, balance: entry.balance + Number(e.data['amount']) });
}

const rate = (events: number, ms: number) => Math.round((events / ms) * 1000);
const fmt = (n: number) => n.toLocaleString('en-US');

interface Stores {
  eventStore: EventStore;
  readStore: ReadStore;
}

async function benchOne(label: string, stores: Stores): Promise<Record<string, number>> {
  const { eventStore, readStore } = stores;
  let start = performance.now();
  for (let i = 0; i < SINGLE; i++) await eventStore.append(`ledger-${i % STREAMS}`, [event(i)], ANY);
  const single = rate(SINGLE, performance.now() - start);

  start = performance.now();
  for (let i = 0; i < BATCHED / BATCH_SIZE; i++) {
    await eventStore.append(
      `ledger-${i % STREAMS}`,
      Array.from({ length: BATCH_SIZE }, (_, j) => event(j)),
      ANY,
    );
  }
  const batched = rate(BATCHED, performance.now() - start);
  const total = SINGLE + BATCHED;

  // The services' path: one transaction (document and checkpoint) per event.
  const projection = runProjection({ name: 'ledger', eventStore, readStore, collections: ['ledger'], handle: project });
  start = performance.now();
  await projection.rebuild();
  const perEvent = rate(total, performance.now() - start);
  await projection.close();

  // The same log, REBUILD_BATCH events per transaction.
  await readStore.reset('ledger', ['ledger']);
  start = performance.now();
  const subscription = eventStore.subscribeToAll();
  let pending: RecordedEvent[] = [];
  const flush = () => {
    const events = pending;
    pending = [];
    return readStore.transaction(async (tx) => {
      for (const e of events) await project(e, tx);
      await tx.saveCheckpoint('ledger', events[events.length - 1]!.position);
    });
  };
  let seen = 0;
  for await (const e of subscription) {
    pending.push(e);
    if (++seen === total || pending.length === REBUILD_BATCH) await flush();
    if (seen === total) break;
  }
  const batchedRebuild = rate(total, performance.now() - start);
  const ledger = await readStore.query<Ledger>('ledger');
  if (ledger.items.reduce((n, l) => n + l.events, 0) !== total)
    throw new Error(`${label}: the rebuilt ledger does not count ${total} events`);

  console.log(
    `stores: ${label}: append ${fmt(single)} events/s single, ${fmt(batched)} events/s in batches of ${BATCH_SIZE}; ` +
      `rebuild of ${fmt(total)} events ${fmt(perEvent)} events/s through runProjection, ` +
      `${fmt(batchedRebuild)} events/s ${REBUILD_BATCH} per transaction`,
  );
  return { single, batched, perEvent, batchedRebuild };
}

export async function benchStores(): Promise<Record<string, Record<string, number>>> {
  const results: Record<string, Record<string, number>> = {};
  const dir = mkdtempSync(join(tmpdir(), 'renopath-bench-stores-'));
  try {
    for (const synchronous of ['FULL', 'NORMAL'] as const) {
      const eventStore = openSqliteEventStore({ file: join(dir, `${synchronous}-events.db`), synchronous });
      const readStore = openSqliteReadStore({ file: join(dir, `${synchronous}-read.db`), synchronous });
      const label = `sqlite ${synchronous}`;
      try {
        results[label] = await benchOne(label, { eventStore, readStore });
      } finally {
        await readStore.close();
        await eventStore.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const embedded = Math.max(results['sqlite FULL']!['batchedRebuild']!, results['sqlite NORMAL']!['batchedRebuild']!);
  const perEvent = Math.max(results['sqlite FULL']!['perEvent']!, results['sqlite NORMAL']!['perEvent']!);
  console.log(
    `stores: embedded rebuild target ${fmt(REBUILD_TARGET)} events/s: ${perEvent >= REBUILD_TARGET ? 'met' : 'MISSED'} by runProjection ` +
      `(${fmt(perEvent)}), ${embedded >= REBUILD_TARGET ? 'met' : 'MISSED'} in batches (${fmt(embedded)})`,
  );

  if (!(await postgresListening())) {
    console.warn(`stores: postgres skipped: nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`);
    return results;
  }
  const schemas = testSchemas('bench');
  const schema = schemas.schemaOf('stores');
  try {
    const eventStore = await openPostgresEventStore({ connectionString: testPostgresUrl, schema });
    const readStore = await openPostgresReadStore({ connectionString: testPostgresUrl, schema });
    try {
      results['postgres'] = await benchOne('postgres', { eventStore, readStore });
    } finally {
      await readStore.close();
      await eventStore.close();
    }
  } finally {
    await schemas.drop();
  }
  return results;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await benchStores();
