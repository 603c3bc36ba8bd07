/**
 * Message bus port: request/reply for commands and queries (`cmd.<context>.<name>`,
 * `qry.<context>.<name>`), and durable at-least-once delivery of domain events
 * (`evt.<context>.<EventType>`) to named consumers. NATS core + JetStream in the distributed mode.
 */

/** A domain event as it travels between contexts. Positions are numbers on the wire. */
export interface EventEnvelope {
  /** The bounded context whose stream the event belongs to (`position` is in that context's log). */
  context: string;
  event_id: string;
  type: string;
  stream: string;
  revision: number;
  position: number;
  occurred_at: string;
  data: Record<string, unknown>;
  metadata: {
    actor: { user_id: string | null; client_id: string | null };
    correlation_id: string;
    causation_id: string | null;
    /** The W3C trace context of the work that appended the event, when it was traced. */
    traceparent?: string;
  };
}

/**
 * An error a handler raises on purpose (validation, not found, forbidden, conflict). It crosses the
 * bus intact so the gateway can map it to the contract's error body; anything else becomes a 500.
 */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 406 | 409 | 413 | 415 | 422 | 429 | 503,
    readonly messages: string[],
    readonly code?: string,
  ) {
    super(messages.join('; ') || `domain error ${status}`);
    this.name = 'DomainError';
  }
}

/** The 404 every context raises for what the caller may not see or what does not exist (`estate not found`). */
export const notFound = (what: string): DomainError => new DomainError(404, [`${what} not found`]);

/** A request that reached no handler in time (service down or overloaded): the gateway answers 503. */
export class BusUnavailableError extends Error {
  constructor(
    readonly subject: string,
    readonly reason: string,
  ) {
    super(`${subject}: ${reason}`);
    this.name = 'BusUnavailableError';
  }
}

/**
 * What travels beside a request's payload, as NATS message headers on the wire: the W3C trace context
 * (`traceparent`, `tracestate`). Names are lower case.
 */
export type BusHeaders = Readonly<Record<string, string>>;

export interface RequestOptions {
  timeoutMs?: number;
  /** Sent beside the payload (NATS message headers); the handler gets them as its third argument. */
  headers?: BusHeaders;
}

/** Serves a request; `headers` are the request's (none when it came without). */
export type RequestHandler = (payload: unknown, subject: string, headers?: BusHeaders) => Promise<unknown>;
export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface Closeable {
  close(): Promise<void>;
}

export interface ConsumeOptions {
  /** Subjects (NATS wildcards allowed: `evt.identity.>`). */
  subjects: string[];
  /**
   * A listener that cares only about what happens from now on (e.g. one gateway instance following
   * revocations): a new consumer starts at the end of the log instead of its beginning, and its
   * server-side state is dropped after it has been idle this long, so restarts leave nothing behind.
   */
  transient?: { idleExpiryMs: number };
  /**
   * How many events the handler may be handling at once (default 1: one at a time). They are still
   * handed over in publish order and acknowledged in that order: after a failure, the failed event and
   * every later one are delivered again, handled already or not. So a handler that takes more than one
   * is idempotent, and keeps the order itself where two of its events depend on each other
   * (`consumeEvents`' `orderedBy`). What it buys: a handler that waits (an append's fsync, another
   * context's copy) no longer holds up the independent events behind it. A bus may hand fewer at once
   * (NATS: one; its consumers keep one unacknowledged event across every instance).
   */
  inFlight?: number;
}

export interface Bus {
  /**
   * Whether published events and consumer positions outlive this process (JetStream: true). An
   * in-process bus starts empty: relays then publish their context's whole log again at start, so
   * every consumer (a new context's too) sees everything it missed; consumers are idempotent.
   */
  readonly retainsEvents: boolean;
  /** Sends a request and waits for the one reply. DomainError from the handler is rethrown here. */
  request<T = unknown>(subject: string, payload: unknown, options?: RequestOptions): Promise<T>;
  /** Serves requests on a subject; several handlers on one subject share the load (queue group). */
  handle(subject: string, handler: RequestHandler): Promise<Closeable>;
  /** Publishes a domain event durably on `subject`; a re-published event id is dropped. */
  publish(subject: string, event: EventEnvelope): Promise<void>;
  /**
   * A durable named consumer: delivers every event published on its subjects at least once, in
   * publish order, one at a time unless `options.inFlight` allows more; an event is acknowledged when
   * the handler resolves and redelivered when it throws. Resumes after a restart where it left off.
   */
  consume(consumer: string, options: ConsumeOptions, handler: EventHandler): Promise<Closeable>;
  /**
   * Whether a durable consumer has handled everything published so far on its subjects (nothing
   * waiting, nothing in flight). Read-your-writes across contexts asks it; false for an unknown one.
   */
  isCaughtUp(consumer: string): Promise<boolean>;
  close(): Promise<void>;
}
