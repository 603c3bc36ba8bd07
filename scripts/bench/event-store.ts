import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exact, NO_STREAM, type EventStore, type NewEvent, type RecordedEvent } from '@renopath/platform';
import { openSqliteEventStore } from '@renopath/platform/sqlite/event-store/sqlite-event-store.ts';

/**
 * The SQLite event store (at FULL unless told, on disk) as a context's process uses it: COMMANDS commands from
 * WRITERS concurrent callers, each reading its stream and appending one event at the revision it read
 * (a command's decide), over STREAMS streams; meanwhile three subscriptions tail the log as a context's
 * relay (its checkpoint saved behind it), a projection (all events) and a process manager (one
 * stream prefix) do. Prints commands/s, the p50/p99 of a command and the process's CPU per command;
 * then a catch-up read of the whole log through `subscribeToAll` (events/s). Each of the caches the
 * store once held (recent streams, the committed tail, lazy JSON, an fsync off the event loop) must show
 * here, or in `npm run bench -- jobs`, to be worth its code.
 */
const COMMANDS = Number(process.env['BENCH_EVENT_STORE_COMMANDS'] ?? 6000);
const WRITERS = Number(process.env['BENCH_EVENT_STORE_WRITERS'] ?? 32);
const STREAMS = 400;
/** `BENCH_EVENT_STORE_SYNCHRONOUS=NORMAL` leaves the fsync out: what is left is the store's own CPU. */
const SYNCHRONOUS = process.env['BENCH_EVENT_STORE_SYNCHRONOUS'] === 'NORMAL' ? 'NORMAL' : 'FULL';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

function event(i: number): NewEvent {
  return {
    event_id: randomUUID(),
    type: i % 2 === 0 ? 'RoofAdded' : 'WallInsulated',
    data: { n: i, roof: { kind: 'INCLINED', area_m2: 40 + (i % 60) }, note: 'bench' },
    metadata: { actor: { user_id: 'bench', client_id: null }, correlation_id: randomUUID(), causation_id: null },
    occurred_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  };
}

/** Follows the log until it has seen position `total`, or is closed; `onEvent` is the consumer's own work. */
function tail(store: EventStore, total: number, onEvent: (e: RecordedEvent) => Promise<void> | void, prefixes?: string[]) {
  const subscription = store.subscribeToAll(prefixes ? { streamPrefixes: prefixes } : {});
  const done = (async () => {
    for await (const e of subscription) {
      await onEvent(e);
      if (e.position >= BigInt(total)) break;
    }
  })();
  return { done, close: () => subscription.close() };
}

export async function benchEventStore(
  open: (file: string) => EventStore & { checkpoints: { save(c: string, p: bigint): Promise<void> } } = (file) =>
    openSqliteEventStore({ file }),
) {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-bench-event-store-'));
  try {
    const store = open(join(dir, 'events.db'));
    // A store's timers do not hold the process open (a service's server does): this one stands in for it.
    const alive = setInterval(() => undefined, 1000);
    let folded = 0;
    // As the relay saves its checkpoint: behind the publishing, one save at a time, of the latest position.
    let wanted: bigint | null = null;
    let saving: Promise<void> | null = null;
    const saveBehind = (position: bigint) => {
      wanted = position;
      saving ??= (async () => {
        for (let p = wanted as bigint | null; p !== null; p = wanted as bigint | null) {
          wanted = null;
          await store.checkpoints.save('relay', p);
        }
        saving = null;
      })();
    };
    const consumers = [
      tail(store, COMMANDS, (e) => saveBehind(e.position)),
      tail(store, COMMANDS, (e) => {
        folded += Number((e.data as { n: number }).n >= 0);
      }),
      tail(store, COMMANDS, () => undefined, ['estate-1']),
    ];
    const latencies: number[] = [];
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        for (let i = next++; i < COMMANDS; i = next++) {
          const stream = `estate-${i % STREAMS}`;
          const t = performance.now();
          for (;;) {
            const history = await store.readStream(stream);
            const last = history.at(-1);
            try {
              await store.append(stream, [event(i)], last ? exact(last.revision) : NO_STREAM);
              break;
            } catch {
              // Another writer moved the stream on: read it again, as a command retries.
            }
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // The relay and the projection end at the last event; the process manager, which skips most, is closed then.
    await Promise.all([consumers[0]!.done, consumers[1]!.done]);
    while (saving) await saving;
    await consumers[2]!.close();
    await consumers[2]!.done;
    if (folded < COMMANDS) throw new Error(`event-store: the projection saw ${folded} of ${COMMANDS} events`);
    console.log(
      `event-store (${SYNCHRONOUS}): ${COMMANDS} commands (read stream + append, ${WRITERS} at a time, 3 subscribers): ` +
        `${Math.round((COMMANDS / elapsed) * 1000)} commands/s, p50 ${quantile(latencies, 0.5).toFixed(2)} ms, ` +
        `p99 ${quantile(latencies, 0.99).toFixed(2)} ms, CPU ${((used.user + used.system) / COMMANDS).toFixed(0)} µs a command`,
    );

    const readStart = performance.now();
    let read = 0;
    await tail(store, COMMANDS, (e) => {
      read += e.stream.length > 0 ? 1 : 0;
    }).done;
    console.log(
      `event-store: catch-up read of ${read} events through subscribeToAll: ${Math.round((read / (performance.now() - readStart)) * 1000)} events/s`,
    );
    await store.close();
    clearInterval(alive);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await benchEventStore();
