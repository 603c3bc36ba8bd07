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
