import { z } from 'zod';
import { CalculationJobEvents, IndicationEvents } from './calculations.ts';
import { EstateEvents } from './estates.ts';
import { IdentityEvents, Timestamp, Uuid } from './identity.ts';
import { PortfolioRunEvents } from './portfolio.ts';
import { ReportEvents } from './reporting.ts';
import { PassportEvents } from './passport.ts';
import { RenovationEvents } from './renovations.ts';

/**
 * The domain events each context publishes to the bus, as a contract for services outside
 * Renopath (auditors, data warehouses, other teams' services): every event is published to
 * `evt.<context>.<EventType>` (after `RENOPATH_NATS_PREFIX.` when one is set) on the JetStream
 * stream `RENOPATH_EVENTS` (`RENOPATH_NATS_STREAM`), as an `EventEnvelope` whose `data` is the
 * event's contract below. The AsyncAPI document (`/asyncapi.json`) is generated from this map;
 * docs/events.md shows how to subscribe.
 */
export const PUBLISHED_EVENTS = {
  identity: IdentityEvents,
  estates: EstateEvents,
  renovations: RenovationEvents,
  calculations: { ...CalculationJobEvents, ...IndicationEvents, ...PortfolioRunEvents },
  reporting: { ...ReportEvents, ...PassportEvents },
} as const satisfies Record<string, Record<string, z.ZodType>>;
export type PublishingContext = keyof typeof PUBLISHED_EVENTS;

/**
 * One event on the bus (the platform's `EventEnvelope`, shared/platform/src/ports/bus.ts, as it is
 * written to the wire). `event_id` is also the JetStream message id, so a re-published event within
 * the stream's duplicate window is dropped by the server; a subscriber deduplicates by it as well.
 */
export const EventEnvelope = z.object({
  /** The context whose event log the event belongs to. */
  context: z.string(),
  /** Unique per event: the key to deduplicate by. */
  event_id: Uuid,
  /** The event's name, also the last token of its subject. */
  type: z.string(),
  /** The stream (aggregate) it belongs to, e.g. `estate-<id>`. */
  stream: z.string(),
  /** Its number in that stream, from 0: a stream is totally ordered. */
  revision: z.number().int(),
  /** Its position in the context's log: increasing, so a subscriber can tell where it is. */
  position: z.number().int(),
  occurred_at: Timestamp,
  data: z.record(z.string(), z.unknown()),
  metadata: z.object({
    /** Who caused it: the user and API client of the request, or null for the system. */
    actor: z.object({ user_id: z.string().nullable(), client_id: z.string().nullable() }),
    /** The request that caused it (the `x-correlation-id` of its HTTP answer). */
    correlation_id: z.string(),
    /** The event or command it followed from, when it was caused by another event. */
    causation_id: z.string().nullable(),
  }),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** The subject an event is published to (before the deployment's prefix). */
export const eventSubject = (context: string, type: string) => `evt.${context}.${type}`;
