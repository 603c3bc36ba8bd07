/**
 * Event store port. Shaped after EventStoreDB's client so that the esdb adapter fits without
 * changing callers: streams with revisions, a global log with positions, expected-revision appends.
 */

/** What a caller expects the stream's current revision to be when appending. */
export type ExpectedRevision =
  | { kind: 'any' }
  | { kind: 'no_stream' }
  /** Revision of the last event in the stream (0-based: first event has revision 0). */
  | { kind: 'exact'; revision: bigint };

export const ANY: ExpectedRevision = { kind: 'any' };
export const NO_STREAM: ExpectedRevision = { kind: 'no_stream' };
export const exact = (revision: bigint): ExpectedRevision => ({ kind: 'exact', revision });

export interface EventMetadata {
  /** Who caused it: the acting user and API client (null for system actions). */
  actor: { user_id: string | null; client_id: string | null };
  /** The HTTP request id that started the chain. */
  correlation_id: string;
  /** The event or command id that directly caused this event. */
  causation_id: string | null;
  /** The client's `Idempotency-Key`, scoped by API client, when the request carried one (audit only). */
  idempotency_key?: string;
  /** The W3C trace context of the work that appended it: projections and reactors continue that trace. */
  traceparent?: string;
}

/** An event as the caller proposes it. `event_id` is chosen by the caller (idempotency key). */
export interface NewEvent {
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  /** ISO-8601 UTC with ms; comes from the command's metadata, never from the store's clock. */
  occurred_at: string;
}

/** An event as stored. */
export interface RecordedEvent extends NewEvent {
  stream: string;
  /** 0-based position in its stream. */
  revision: bigint;
  /** 1-based position in the global log; strictly increasing in commit order. */
  position: bigint;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  next_revision: bigint;
  /** Global position of the last appended event. */
  position: bigint;
}

export interface AppendOptions {
  /**
   * Makes the append once-only: the store records the key with the append's result in the same
   * transaction as the events, and a later append to the same stream under the same key writes
   * nothing and answers that first result (whatever its events and expected revision).
   */
  idempotencyKey?: string;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | null,
  ) {
    super(`stream ${stream}: expected ${expected.kind === 'exact' ? expected.revision : expected.kind}, actual ${actual ?? 'no stream'}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * Some of the appended event ids are already stored, but not as an identical earlier append (same
 * ids, in order, in this stream, with the same expected revision): a partial or mismatched retry.
 */
export class EventIdConflictError extends Error {
  constructor(
    readonly stream: string,
    readonly eventIds: string[],
    reason: string,
  ) {
    super(`stream ${stream}: ${reason} (${eventIds.join(', ')})`);
    this.name = 'EventIdConflictError';
  }
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive). Default 0. */
  fromRevision?: bigint;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Read events with position strictly greater than this. Default 0 (from the start). */
  after?: bigint;
  maxCount?: number;
}

export interface SubscribeOptions {
  /**
   * Deliver events with position strictly greater than this (default 0n: from the start). A durable
   * consumer passes its last checkpoint (`CheckpointStore.load` or the read store's checkpoint).
   */
  after?: bigint;
  /** Only deliver events of these streams' prefixes (e.g. `organization-`). */
  streamPrefixes?: string[];
  /**
   * Optional progress report: a position the consumer may store as its checkpoint although none of
   * its events came (a store that filters a log shared with others, like EventStoreDB, reports how
   * far its filter has read, so a restart does not scan the same foreign events again). Called when
   * the consumer asks for the next event, so everything at or before the position has been handed
   * out. Adapters without such reports never call it.
   */
  onCheckpoint?: (position: bigint) => void | Promise<void>;
}

export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
  /**
   * Up to `max` events already read and not yet handed out, without waiting or reading (none when
   * the subscription has nothing in hand). Lets a projection apply a backlog in one transaction.
   */
  takeBuffered?(max: number): RecordedEvent[];
}

export interface EventStore {
  /**
   * Appends atomically. Idempotent by event id: re-sending the same events (same ids) with the same
   * expected revision succeeds and writes nothing twice. Throws WrongExpectedRevisionError on a
   * revision conflict and EventIdConflictError when only some ids, or the same ids at another
   * revision, were stored before.
   */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult>;
  /** The result of the append made to `stream` under `idempotencyKey`, or null when there was none. */
  appendedUnder(stream: string, idempotencyKey: string): Promise<AppendResult | null>;
  /** Events of one stream in revision order; [] when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of the global log in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event in the global log (0n when empty). */
  headPosition(): Promise<bigint>;
  /**
   * Catch-up subscription to the global log: first the stored events after `after`, then live ones,
   * in position order, one at a time (the next is produced only when the consumer asks for it).
   */
  subscribeToAll(options?: SubscribeOptions): Subscription;
  close(): Promise<void>;
}

/** Durable checkpoints for consumers that are not read-store projections (e.g. the bus relay). */
export interface CheckpointStore {
  load(consumer: string): Promise<bigint>;
  save(consumer: string, position: bigint): Promise<void>;
}
