import type { Logger } from 'pino';
import type { z } from 'zod';
import { eventConsumer, type EventConsumerName } from '@renopath/contracts';
import type { Bus, Closeable, EventEnvelope } from '../ports/bus.ts';
import type { ReadStore } from '../ports/read-store.ts';
import type { Settlement } from './settlement.ts';
import type { EventContracts } from './event-contracts.ts';

/**
 * Opens a reactor or process manager: the durable consumer `consumer` on the subjects the contracts
 * list for it (EVENT_CONSUMERS), whose handled events count towards the settlement of a command that
 * caused them (`settlement.ts`). An event counts once `handle` resolved; one it throws on is redelivered.
 */
export function consumeEvents(
  bus: Bus,
  consumer: EventConsumerName,
  settlement: Settlement | undefined,
  handle: (envelope: EventEnvelope) => Promise<void>,
): Promise<Closeable> {
  const { subjects, origins } = eventConsumer(consumer);
  const tracked = settlement?.reactor(consumer, origins);
  return bus.consume(consumer, { subjects }, async (envelope) => {
    await handle(envelope);
    tracked?.handled(envelope);
  });
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
): Promise<Closeable> {
  return consumeEvents(options.bus, consumer, options.settlement, async (envelope) => {
    if (!Object.hasOwn(contracts, envelope.type)) return;
    const parsed = contracts[envelope.type]!.safeParse(envelope.data);
    if (!parsed.success) {
      const { event_id, type } = envelope;
      options.log.error({ err: parsed.error, event_id, type }, `${consumer}: event does not match its contract; skipped`);
      return;
    }
    await handle({ type: envelope.type, data: parsed.data } as ParsedEvent<M>, envelope);
  });
}
