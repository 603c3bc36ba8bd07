import { eventConsumer, type EventConsumerName } from '@renopath/contracts';
import type { Bus, Closeable, EventEnvelope } from '../ports/bus.ts';
import type { Settlement } from './settlement.ts';

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

/**
 * `consumeEvents` for a consumer that acts on one event type's data: the data parsed by its contract
 * first. A malformed event would be redelivered forever, so it is logged and passed over.
 */
export function consumeParsedEvents<T>(
  bus: Bus,
  consumer: EventConsumerName,
  settlement: Settlement | undefined,
  contract: { safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown } },
  log: { error(details: object, message: string): void },
  handle: (data: T, envelope: EventEnvelope) => Promise<void>,
): Promise<Closeable> {
  return consumeEvents(bus, consumer, settlement, async (envelope) => {
    const parsed = contract.safeParse(envelope.data);
    if (!parsed.success) {
      log.error({ err: parsed.error, event_id: envelope.event_id }, `${consumer}: event does not match its contract; skipped`);
      return;
    }
    await handle(parsed.data, envelope);
  });
}
