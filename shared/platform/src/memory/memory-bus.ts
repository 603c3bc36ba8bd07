import { BusUnavailableError } from '../ports/bus.ts';
import type * as port from '../ports/bus.ts';
import { backoff, sleep } from '../internal/async.ts';
import { serveRequest, unwrapReply, type Reply } from '../internal/reply.ts';
import { anySubjectMatches, subjectMatches } from '../internal/subjects.ts';
import { handleInFlight } from '../internal/in-flight.ts';
import { envelopeJson } from '../internal/stored-json.ts';

/** How often request deadlines are checked: timeouts fire within this much of their due time. */
const SWEEP_INTERVAL_MS = 50;
/** How often (in published events) the log is trimmed, and what it keeps when nobody consumes. */
const TRIM_EVERY = 1024;
const RETAIN_WITHOUT_CONSUMERS = 10_000;

/** Deep copy through JSON, so handlers and callers get what the wire would give them. */
function viaJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export interface MemoryBusOptions {
  /** Default request timeout (ms). */
  requestTimeoutMs?: number;
  /**
   * Copy request payloads and replies through JSON, as the wire would (default true). Tests keep it on
   * to catch values NATS could not carry; the embedded server turns it off, since the copy is a large
   * share of an in-process call's cost. Without it a reply may be the answering context's frozen
   * read-model document itself: a requester copies what it means to change.
   */
  copyRequests?: boolean;
  /** Delay before redelivering an event whose handler threw; doubles per attempt up to `maxDelayMs`. */
  redelivery?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Sees errors that handlers raise which are not DomainErrors (the requester only gets a 500). */
  onHandlerError?: (error: unknown, subject: string) => void;
}

/**
 * A request awaiting its reply. A class rather than an object literal with an arrow property: run
 * through tsx (keepNames), such a property costs an Object.defineProperty of its name per request.
 */
class Pending {
  constructor(
    readonly deadline: number,
    readonly reject: () => void,
  ) {}
}

interface Responder {
  pattern: string;
  handler: port.RequestHandler;
}

/** A published event as the wire would carry it: serialized once, parsed afresh for each delivery. */
interface Published {
  subject: string;
  eventId: string;
  json: string;
}

/** A durable consumer's state; it outlives `close()` so a later `consume` resumes where it stopped. */
interface Durable {
  offset: number;
  active: boolean;
  subjects: string[];
  /**
   * Whether a subject matches `subjects`, by subject. Subjects name a context and an event type (no
   * ids), so this stays a handful of entries, and every consumer skips the events of other contexts
   * without splitting each subject again.
   */
  matches: Map<string, boolean>;
  /**
   * Set while its delivery loop has caught up and waits: a publish wakes only the consumers that want
   * its subject. Waking every waiting consumer on every publish cost each of them a promise and a
   * turn of its loop per event of any context (over a dozen consumers, a dozen events a job).
   */
  wake: (() => void) | null;
}

/** Resumes the consumer's delivery loop if it waits (once: the loop sets `wake` again when it next waits). */
function wakeUp(durable: Durable): void {
  const wake = durable.wake;
  durable.wake = null;
  wake?.();
}

function wants(durable: Durable, subject: string): boolean {
  let match = durable.matches.get(subject);
  if (match === undefined) {
    match = anySubjectMatches(durable.subjects, subject);
    if (durable.matches.size >= 1024) durable.matches.clear();
    durable.matches.set(subject, match);
  }
  return match;
}

/**
 * The embedded bus: request/reply and a durable event log in one process, with the semantics of the
 * NATS bus (queue groups, wildcards, at-least-once durable consumers, dedup by event id).
 */
export class MemoryBus implements port.Bus {
  /** Nothing survives the process: relays replay their log into a new one at start. */
  readonly retainsEvents = false;
  private readonly responders: Responder[] = [];
  private readonly roundRobin = new Map<string, number>();
  /** Requests awaiting their reply, with the time they give up. */
  private readonly pending = new Set<Pending>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Responders per concrete subject, so a request does not match every pattern each time. */
  private readonly routes = new Map<string, Responder[]>();
  /**
   * The retained part of the event log; `base` is the absolute index of its first entry. Entries every
   * durable consumer has passed are dropped (like a JetStream stream with interest retention), so a
   * long-running embedded process does not keep every event it ever published.
   */
  private log: Published[] = [];
  private base = 0;
  private readonly publishedIds = new Set<string>();
  private readonly durables = new Map<string, Durable>();
  private readonly consumers = new Set<port.Closeable>();
  private readonly requestTimeoutMs: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private closed = false;

  constructor(private readonly options: MemoryBusOptions = {}) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5000;
    this.initialDelayMs = options.redelivery?.initialDelayMs ?? 500;
    this.maxDelayMs = options.redelivery?.maxDelayMs ?? 30_000;
  }

  async request<T = unknown>(subject: string, payload: unknown, options: port.RequestOptions = {}): Promise<T> {
    this.assertOpen();
    let candidates = this.routes.get(subject);
    if (!candidates) {
      candidates = this.responders.filter((r) => subjectMatches(r.pattern, subject));
      this.routes.set(subject, candidates);
    }
    if (candidates.length === 0) throw new BusUnavailableError(subject, 'no responders');
    const turn = this.roundRobin.get(subject) ?? 0;
    this.roundRobin.set(subject, turn + 1);
    const responder = candidates[turn % candidates.length]!;

    let failure: unknown;
    const copy = this.options.copyRequests ?? true;
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    // Copied before the request is registered: a payload the wire cannot carry leaves no pending entry behind.
    const sent = copy ? viaJson(payload) : payload;
    const reply = await new Promise<Reply>((resolve, reject) => {
      const pending = new Pending(Date.now() + timeoutMs, () =>
        reject(new BusUnavailableError(subject, `no reply within ${timeoutMs} ms`)),
      );
      this.pending.add(pending);
      this.sweepPending();
      serveRequest(
        responder.handler,
        sent,
        subject,
        (error, s) => {
          failure = error;
          this.options.onHandlerError?.(error, s);
        },
        options.headers,
      ).then(
        (r) => (this.pending.delete(pending), resolve(r)),
        (e: unknown) => (this.pending.delete(pending), reject(e)),
      );
    });
    // The reply envelope is built right here by serveRequest, so only its value needs the wire copy.
    if (reply.ok) return (copy ? viaJson(reply.value) : reply.value) as T;
    return unwrapReply<T>(reply, subject, failure);
  }

  /**
   * Request timeouts share one timer instead of arming one per request: in-process requests are
   * answered in microseconds, and a timer per call was a visible share of their cost.
   */
  private sweepPending(): void {
    if (this.sweeper || this.pending.size === 0) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const p of this.pending) if (p.deadline <= now) this.pending.delete(p), p.reject();
      if (this.pending.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async handle(subject: string, handler: port.RequestHandler): Promise<port.Closeable> {
    this.assertOpen();
    const responder: Responder = { pattern: subject, handler };
    this.responders.push(responder);
    this.routes.clear();
    return {
      close: async () => {
        const index = this.responders.indexOf(responder);
        if (index >= 0) this.responders.splice(index, 1);
        this.routes.clear();
      },
    };
  }

  async publish(subject: string, event: port.EventEnvelope): Promise<void> {
    this.assertOpen();
    this.publishSerialized(subject, event.event_id, envelopeJson(event));
  }

  /**
   * Publishes an event serialized elsewhere (a context in another thread, thread-bus.ts): the text
   * goes into the log as it came, so this thread neither parses nor serializes it.
   */
  publishSerialized(subject: string, eventId: string, json: string): void {
    this.assertOpen();
    // Same as JetStream's message-id dedup, with a window as long as the in-memory log.
    if (this.publishedIds.has(eventId)) return;
    this.publishedIds.add(eventId);
    this.log.push({ subject, eventId, json });
    for (const durable of this.durables.values()) {
      if (durable.wake === null) continue;
      // A consumer that waits has passed everything before this event: past this one too, unless it
      // wants it (else an idle consumer would hold the log from here on).
      if (!wants(durable, subject)) durable.offset = this.end;
      else wakeUp(durable);
    }
    if (this.log.length % TRIM_EVERY === 0) this.trim();
  }

  /**
   * How many events the bus holds: those a durable consumer started now, or one that is behind, would
   * still be handed. It grows with the slowest durable's lag and stays bounded when nobody consumes.
   */
  get retainedEvents(): number {
    return this.log.length;
  }

  private get end(): number {
    return this.base + this.log.length;
  }

  private at(offset: number): Published | undefined {
    return this.log[offset - this.base];
  }

  /** Drops what every durable consumer has passed; with none, keeps the most recent entries only. */
  private trim(): void {
    let keepFrom = this.durables.size === 0 ? this.end - RETAIN_WITHOUT_CONSUMERS : this.end;
    for (const durable of this.durables.values()) keepFrom = Math.min(keepFrom, durable.offset);
    const drop = keepFrom - this.base;
    if (drop <= 0) return;
    for (const entry of this.log.slice(0, drop)) this.publishedIds.delete(entry.eventId);
    this.log = this.log.slice(drop);
    this.base = keepFrom;
  }

  async consume(consumer: string, options: port.ConsumeOptions, handler: port.EventHandler): Promise<port.Closeable> {
    const inFlight = Math.max(1, options.inFlight ?? 1);
    return this.consumeSerialized(consumer, options, inFlight, (jsons) =>
      handleInFlight(jsons, inFlight, (json) => handler(JSON.parse(json) as port.EventEnvelope)),
    );
  }

  /**
   * `consume` for a consumer in another thread (thread-bus.ts): it gets up to `batch` events at once,
   * as the JSON text they were published as, handles them one at a time in order there, and answers
   * how many it handled before one failed (with that failure). One round trip per batch instead of per
   * event: a consumer a thread away would otherwise wait for two wake-ups between any two events.
   */
  async consumeSerialized(
    consumer: string,
    options: port.ConsumeOptions,
    batch: number,
    handler: (jsons: string[]) => Promise<{ handled: number; error?: unknown }>,
  ): Promise<port.Closeable> {
    this.assertOpen();
    let durable = this.durables.get(consumer);
    if (!durable) {
      // New durables start at the oldest retained event (deliver-all); transient listeners at the end.
      durable = {
        offset: options.transient ? this.end : this.base,
        active: false,
        subjects: options.subjects,
        matches: new Map(),
        wake: null,
      };
      this.durables.set(consumer, durable);
    }
    if (durable.active) throw new Error(`consumer ${consumer} is already consuming on this bus`);
    durable.active = true;
    if (durable.subjects.join(' ') !== options.subjects.join(' ')) durable.matches = new Map();
    durable.subjects = options.subjects;
    const stop = new AbortController();
    const running = this.deliver(durable, Math.max(1, batch), handler, stop.signal);
    const closeable: port.Closeable = {
      close: async () => {
        stop.abort();
        wakeUp(durable);
        await running;
        durable.active = false;
        // A transient listener leaves nothing behind (NATS drops it when idle): it must not hold the log.
        if (options.transient) this.durables.delete(consumer);
        this.consumers.delete(closeable);
      },
    };
    this.consumers.add(closeable);
    return closeable;
  }

  /**
   * In log order, up to `batch` matching events per call; the offset moves past an event only once
   * the handler has handled it, and a failed event is redelivered, after a delay, before any later one.
   */
  private async deliver(
    durable: Durable,
    batch: number,
    handler: (jsons: string[]) => Promise<{ handled: number; error?: unknown }>,
    stop: AbortSignal,
  ): Promise<void> {
    let attempt = 0;
    const jsons: string[] = [];
    const offsets: number[] = [];
    while (!stop.aborted) {
      while (durable.offset < this.end && !wants(durable, this.at(durable.offset)!.subject)) {
        durable.offset += 1;
      }
      if (durable.offset >= this.end) {
        // Set and checked in one synchronous stretch: no publish can come between the two.
        await new Promise<void>((resolve) => (durable.wake = resolve));
        continue;
      }
      jsons.length = 0;
      offsets.length = 0;
      for (let i = durable.offset; i < this.end && jsons.length < batch; i++) {
        const entry = this.at(i)!;
        if (wants(durable, entry.subject)) jsons.push(entry.json), offsets.push(i);
      }
      let outcome: { handled: number; error?: unknown };
      try {
        outcome = await handler(jsons);
      } catch (error) {
        outcome = { handled: 0, error };
      }
      const handled = Math.min(outcome.handled, offsets.length);
      if (handled > 0) {
        durable.offset = offsets[handled - 1]! + 1;
        attempt = 0;
      }
      if (handled < offsets.length) {
        this.options.onHandlerError?.(outcome.error, this.at(offsets[handled]!)?.subject ?? '');
        await sleep(backoff(attempt, this.initialDelayMs, this.maxDelayMs), stop);
        attempt += 1;
      }
    }
  }

  async isCaughtUp(consumer: string): Promise<boolean> {
    const durable = this.durables.get(consumer);
    if (!durable) return false;
    // The offset moves past an event only once its handler succeeded: nothing matching beyond it is left.
    for (let i = durable.offset; i < this.end; i++) {
      if (wants(durable, this.at(i)!.subject)) return false;
    }
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.consumers].map((c) => c.close()));
    this.responders.length = 0;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}

export function createMemoryBus(options: MemoryBusOptions = {}): MemoryBus {
  return new MemoryBus(options);
}
