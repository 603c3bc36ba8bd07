import type { Logger } from 'pino';
import type { z } from 'zod';
import { eventConsumer, type EventConsumerName } from '@renopath/contracts';
import type { Bus, Closeable, EventEnvelope } from '../ports/bus.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { traceFields } from '../observability/tracing.ts';
import type { Settlement } from './settlement.ts';
import type { EventContracts } from './event-contracts.ts';

/**
 * Opens a reactor or process manager: the durable consumer `consumer` on the subjects the contracts
 * list for it (EVENT_CONSUMERS), whose handled events count towards the settlement of a command that
 * caused them (`settlement.ts`). An event counts once `handle` resolved; one it throws on is redelivered.
 *
 * One event at a time, unless `orderedBy` names what orders them (an estate, a job): then events of
 * different keys are handled side by side, up to EVENTS_IN_FLIGHT at once, and those of one key one
 * after another in publish order. For a consumer whose events wait (an append's fsync, another
 * context's copy) and are independent but for their key, so one event's wait does not hold up the
 * others. Its handler is idempotent: after a failure, the events behind it are delivered again.
 */
export function consumeEvents(
  bus: Bus,
  consumer: EventConsumerName,
  settlement: Settlement | undefined,
  handle: (envelope: EventEnvelope) => Promise<void>,
  orderedBy?: (envelope: EventEnvelope) => string,
): Promise<Closeable> {
  const { subjects, origins } = eventConsumer(consumer);
  const tracked = settlement?.reactor(consumer, origins);
  if (!orderedBy) {
    return bus.consume(consumer, { subjects }, async (envelope) => {
      await handle(envelope);
      tracked?.handled(envelope);
    });
  }
  const keyed = new KeyedOrder(orderedBy, (envelope) => tracked?.handled(envelope));
  return bus.consume(consumer, { subjects, inFlight: EVENTS_IN_FLIGHT }, (envelope) => keyed.run(envelope, handle));
}

/** How many events a consumer with an order key (`consumeEvents`' `orderedBy`) handles at once. */
const EVENTS_IN_FLIGHT = 16;

/**
 * The order of a consumer's events side by side: one key's events chained in the order they came,
 * and `handled` told of each event only once every event before it is handled too, since a settle
 * reads the highest position handled as "everything up to here".
 */
export class KeyedOrder {
  /** The last event of each key still under way: the next of that key runs after it, and not if it failed. */
  private readonly chains = new Map<string, Promise<void>>();
  /** The events under way in the order they came, until the ones before them are handled. */
  private pending: Array<{ envelope: EventEnvelope; done: boolean }> = [];

  constructor(
    private readonly keyOf: (envelope: EventEnvelope) => string,
    private readonly handled: (envelope: EventEnvelope) => void,
  ) {}

  async run(envelope: EventEnvelope, handle: (envelope: EventEnvelope) => Promise<void>): Promise<void> {
    const entry = { envelope, done: false };
    this.pending.push(entry);
    const key = this.keyOf(envelope);
    const mine = (this.chains.get(key) ?? Promise.resolve()).then(() => handle(envelope));
    this.chains.set(key, mine);
    try {
      await mine;
    } catch (error) {
      // This event and all after it are delivered again: what is under way now counts for nothing.
      this.pending = [];
      throw error;
    } finally {
      if (this.chains.get(key) === mine) this.chains.delete(key);
    }
    entry.done = true;
    while (this.pending[0]?.done) this.handled(this.pending.shift()!.envelope);
  }
}

/** What a reactor is started with: the bus it consumes, its log, and the settlement its handled events count towards. */
export interface ReactorOptions {
  bus: Bus;
  log: Logger;
  settlement?: Settlement;
}

/** `ReactorOptions` of a reactor that keeps a local copy of another context's data in a read store. */
export interface ReadStoreReactorOptions extends ReactorOptions {
  readStore: ReadStore;
}

/** An event as the contract of its type reads it: `{ type, data }`, the data parsed with its type's schema. */
export type ParsedEvent<M extends EventContracts> = { [K in keyof M & string]: { type: K; data: z.infer<M[K]> } }[keyof M & string];

/**
 * `consumeEvents` for a reactor that acts on its events' data: each event parsed by the contract of
 * its type in `contracts` (event type -> schema) first, the place an upcaster goes. An event of a type
 * `contracts` does not name is passed over. A malformed event would be redelivered forever, so it is
 * logged (the consumer, the event's id and type) and passed over.
 */
export function consumeParsedEvents<M extends EventContracts>(
  options: ReactorOptions,
  consumer: EventConsumerName,
  contracts: M,
  handle: (event: ParsedEvent<M>, envelope: EventEnvelope) => Promise<void>,
  orderedBy?: (envelope: EventEnvelope) => string,
): Promise<Closeable> {
  return consumeEvents(
    options.bus,
    consumer,
    options.settlement,
    async (envelope) => {
      if (!Object.hasOwn(contracts, envelope.type)) return;
      const parsed = contracts[envelope.type]!.safeParse(envelope.data);
      if (!parsed.success) {
        const { event_id, type, metadata } = envelope;
        options.log.error(
          { err: parsed.error, event_id, type, ...traceFields(metadata) },
          `${consumer}: event does not match its contract; skipped`,
        );
        return;
      }
      await handle({ type: envelope.type, data: parsed.data } as ParsedEvent<M>, envelope);
    },
    orderedBy,
  );
}
