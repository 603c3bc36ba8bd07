/**
 * A small context built on the platform, for the replica tests: `cmd.<context>.add` appends one
 * event to a stream and answers once the `counters` projection shows it (read your writes, on
 * whichever replica took the request); a reactor records each of the context's events it handles.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ANY } from '../ports/event-store.ts';
import type { Bus } from '../ports/bus.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadStoreTx } from '../ports/read-store.ts';
import { runProjection, type Projection } from '../projection-runner.ts';
import { openBus, type PlatformConfig } from '../service/adapters.ts';
import { openContextRuntime, type ContextRuntime } from '../service/context-runtime.ts';

export const COUNTERS = 'counters';
export const COUNTERS_PROJECTION = 'counters';
export const AUDIT = 'audit';
/** Only these streams are projected; others (`other-...`) are skipped, and save no checkpoint. */
export const COUNTED_PREFIX = 'counter-';

export interface CounterDoc {
  n: number;
  event_ids: string[];
  /** Which replica applied each event: one at a time, the lease holder. */
  applied_by: string[];
}
export interface AddReply {
  replica: string;
  event_id: string;
  position: number;
  /** The counter as this replica read it right after the append (null for an uncounted stream). */
  n: number | null;
}

export async function applyCounter(event: RecordedEvent, tx: ReadStoreTx, label: string): Promise<void> {
  const doc = (await tx.get<CounterDoc>(COUNTERS, event.stream)) ?? { n: 0, event_ids: [], applied_by: [] };
  await tx.put(COUNTERS, event.stream, {
    n: doc.n + 1,
    event_ids: [...doc.event_ids, event.event_id],
    applied_by: [...doc.applied_by, label],
  });
}

export interface Replica {
  label: string;
  runtime: ContextRuntime;
  bus: Bus;
  projection: Projection;
  /** Event ids this replica's relay put on the bus, in order (a re-sent one twice). */
  published: string[];
  close(): Promise<void>;
}

export async function startReplica(platform: PlatformConfig, context: string, label: string, log: Logger): Promise<Replica> {
  const bus = await openBus(platform, `replica-${label}`);
  const published: string[] = [];
  // What this replica publishes, seen before the bus's own duplicate filter.
  const counting: Bus = {
    get retainsEvents() {
      return bus.retainsEvents;
    },
    request: (subject, payload, options) => bus.request(subject, payload, options),
    handle: (subject, handler) => bus.handle(subject, handler),
    publish: (subject, event) => (published.push(event.event_id), bus.publish(subject, event)),
    consume: (consumer, options, handler) => bus.consume(consumer, options, handler),
    isCaughtUp: (consumer) => bus.isCaughtUp(consumer),
    close: () => bus.close(),
  };
  const runtime = await openContextRuntime({ platform, context, bus: counting, log });
  const { eventStore, readStore } = runtime.storage;
  const projection = runProjection({
    name: COUNTERS_PROJECTION,
    eventStore,
    readStore,
    collections: [COUNTERS],
    streamPrefixes: [COUNTED_PREFIX],
    handle: (event, tx) => applyCounter(event, tx, label),
    onError: (err) => log.warn({ err }, 'counters projection failed; retrying'),
  });
  const served = await runtime.bus.handle(`cmd.${context}.add`, async (payload): Promise<AddReply> => {
    const { stream } = payload as { stream: string };
    const event_id = randomUUID();
    const result = await eventStore.append(
      stream,
      [
        {
          event_id,
          type: 'Added',
          data: {},
          metadata: { actor: { user_id: null, client_id: null }, correlation_id: event_id, causation_id: null },
          occurred_at: new Date().toISOString(),
        },
      ],
      ANY,
    );
    if (!stream.startsWith(COUNTED_PREFIX)) return { replica: label, event_id, position: Number(result.position), n: null };
    await projection.waitFor(result.position, 10_000);
    const doc = await readStore.get<CounterDoc>(COUNTERS, stream);
    return { replica: label, event_id, position: Number(result.position), n: doc?.n ?? 0 };
  });
  const audit = `${context}-audit`;
  const reactor = runtime.settlement.reactor(audit, [context]);
  const consuming = await runtime.bus.consume(audit, { subjects: [`evt.${context}.>`] }, async (envelope) => {
    await readStore.transaction(async (tx) => {
      const doc = (await tx.get<{ handled_by: string[] }>(AUDIT, envelope.event_id)) ?? { handled_by: [] };
      await tx.put(AUDIT, envelope.event_id, { handled_by: [...doc.handled_by, label] });
    });
    reactor.handled(envelope);
  });
  await runtime.serve();
  return {
    label,
    runtime,
    bus,
    projection,
    published,
    async close() {
      await runtime.close(served, consuming, projection);
      await bus.close();
    },
  };
}
