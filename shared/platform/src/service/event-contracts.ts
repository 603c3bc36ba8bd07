import type { z } from 'zod';
import { formatIssues } from '@renopath/contracts';
import type { RecordedEvent } from '../ports/event-store.ts';

/** A context's event contracts: event type -> the zod schema of its data (`EstateEvents`, `RenovationEvents`, ...). */
export type EventContracts = Readonly<Record<string, z.ZodType>>;

export class EventContractError extends Error {
  constructor(
    readonly event: Pick<RecordedEvent, 'type' | 'stream' | 'position'>,
    readonly issues: string[],
  ) {
    super(`event ${event.type} at ${event.stream}@${event.position} breaks its contract: ${issues.join('; ')}`);
    this.name = 'EventContractError';
  }
}

/**
 * The event as its contract reads it: the data parsed with the schema of its type (types without one,
 * another context's for instance, pass unchanged). This is where an upcaster goes when an event's
 * shape changes: old versions are turned into the current one here, and no handler sees them.
 * An event that breaks its contract is refused, not applied half-understood: the projection stops
 * on it and retries (its error names the event), rather than building a wrong read model.
 */
export function decodeEvent(contracts: EventContracts, event: RecordedEvent): RecordedEvent {
  const schema = contracts[event.type];
  if (!schema) return event;
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) throw new EventContractError(event, formatIssues(parsed.error.issues));
  return { ...event, data: parsed.data as Record<string, unknown> };
}

/** A projection's `handle` that sees events only as their contracts read them (see `decodeEvent`). */
export function withEventContracts<A extends unknown[], R>(
  contracts: EventContracts,
  handle: (event: RecordedEvent, ...rest: A) => R,
): (event: RecordedEvent, ...rest: A) => R {
  return (event, ...rest) => handle(decodeEvent(contracts, event), ...rest);
}
