import type { MessagePort } from 'node:worker_threads';
import { ENGINE_UNAVAILABLE_MESSAGE, isEngineUnavailable } from '../ports/engine.ts';
import { BusUnavailableError, DomainError } from '../ports/bus.ts';
import type * as port from '../ports/bus.ts';
import type { MemoryBus } from './memory-bus.ts';
import { handleInFlight } from '../internal/in-flight.ts';
import { envelopeJson } from '../internal/stored-json.ts';

/**
 * The embedded bus across threads: one MemoryBus in the main thread, and contexts in worker threads
 * that reach it through a MessagePort. Each side of a port is a peer that asks and answers, so a
 * context thread's handlers and consumers run in that thread while the log, the routing and the
 * consumer offsets stay in the one MemoryBus: the semantics are the memory bus's own (queue groups,
 * dedup, at-least-once, in order), and the contract suite runs over a port to show it.
 *
 * Events cross as the JSON text the memory bus keeps: the publishing thread serializes, the
 * consuming thread parses, and the main thread only moves strings. Requests and replies cross by
 * structured clone (the tests' wire-fidelity JSON copy still applies at the memory bus); a handler's
 * DomainError crosses as its status, messages and code, any other failure as a bare error, as on the wire.
 *
 * What a message costs is mostly waking the thread it goes to (tens of microseconds of CPU against a
 * few in a burst), so: messages leave in one batch per turn of the loop, a publish is not answered,
 * and a consumer in a thread gets its events in batches (one round trip per batch, not per event).
 */

/** The `id` of a message that expects no answer. */
const ONE_WAY = 0;

/** The most events a consumer in a thread gets in one message. */
const EVENT_BATCH = 64;

/** What the two sides send each other; `id` pairs a call with its answer. */
type Message =
  | { k: 'request'; id: number; subject: string; payload: unknown; timeoutMs: number | undefined; headers: port.BusHeaders | undefined }
  | { k: 'handle'; id: number; handler: number; subject: string }
  | { k: 'publish'; id: number; subject: string; eventId: string; json: string }
  | { k: 'consume'; id: number; consumer: number; name: string; options: port.ConsumeOptions }
  /** Closes a handler or a consumer (their ids are one sequence). */
  | { k: 'drop'; id: number; registration: number }
  | { k: 'caught-up'; id: number; name: string }
  /** Host to thread: serve a request with the thread's handler. */
  | { k: 'serve'; id: number; handler: number; subject: string; payload: unknown; headers: port.BusHeaders | undefined }
  /** Host to thread: handle these events, in order, with the thread's consumer; answers `{ handled, error? }`. */
  | { k: 'events'; id: number; consumer: number; jsons: string[] }
  | { k: 'answer'; id: number; outcome: Outcome };

/** A call's outcome as it crosses: a value, a bus reply (requests), or a failure to rebuild. */
type Outcome =
  | { ok: true; value?: unknown }
  | {
      ok: false;
      unavailable?: { subject: string; reason: string };
      domain?: { status: DomainError['status']; messages: string[]; code?: string };
      message?: string;
    };

function failure(error: unknown): Outcome {
  if (error instanceof DomainError)
    return {
      ok: false,
      domain: { status: error.status, messages: error.messages, ...(error.code === undefined ? {} : { code: error.code }) },
    };
  if (error instanceof BusUnavailableError) return { ok: false, unavailable: { subject: error.subject, reason: error.reason } };
  return { ok: false, message: error instanceof Error ? error.message : String(error) };
}

function rebuild(outcome: Outcome & { ok: false }): Error {
  if (outcome.domain) return new DomainError(outcome.domain.status, outcome.domain.messages, outcome.domain.code);
  if (outcome.unavailable) return new BusUnavailableError(outcome.unavailable.subject, outcome.unavailable.reason);
  return new Error(outcome.message ?? 'failed in another thread');
}

/** One side of a port: sends calls and matches their answers; `serve` answers the other side's calls. */
class Peer {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private closedBecause: string | null = null;
  private outbox: Message[] = [];

  constructor(
    readonly port: MessagePort,
    serve: (message: Message) => Promise<unknown> | unknown,
  ) {
    // The other thread ended (or closed its side): nothing will answer any more.
    port.on('close', () => this.fail('the other thread closed the bus port'));
    port.on('message', (batch: Message[]) => {
      for (const message of batch) this.receive(message, serve);
    });
  }

  private receive(message: Message, serve: (message: Message) => Promise<unknown> | unknown): void {
    if (message.id === ONE_WAY) {
      // Nobody waits for it; what could fail here (a closed bus) is the closing side's to report.
      new Promise((resolve) => resolve(serve(message))).catch(() => undefined);
      return;
    }
    if (message.k === 'answer') {
      const call = this.waiting.get(message.id);
      if (!call) return;
      this.waiting.delete(message.id);
      if (message.outcome.ok) call.resolve(message.outcome.value);
      else call.reject(rebuild(message.outcome));
      return;
    }
    // Answered even when the handler throws synchronously: the other side must never wait forever.
    new Promise((resolve) => resolve(serve(message))).then(
      (value) => this.post({ k: 'answer', id: message.id, outcome: value === undefined ? { ok: true } : { ok: true, value } }),
      (error: unknown) => this.post({ k: 'answer', id: message.id, outcome: failure(error) }),
    );
  }

  /** A message that gets no answer: it is handled after everything sent before it on this port. */
  send(message: DistributiveOmit<Message, 'id'>): void {
    this.post({ ...message, id: ONE_WAY } as Message);
  }

  call<T>(message: DistributiveOmit<Message, 'id'>): Promise<T> {
    if (this.closedBecause !== null) return Promise.reject(new Error(this.closedBecause));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post({ ...message, id } as Message);
    });
  }

  /**
   * Messages leave in batches, one postMessage per turn of the loop: each postMessage wakes the other
   * thread, and under load the wake-up, not the copy, is most of a message's cost.
   */
  private post(message: Message): void {
    if (this.closedBecause !== null) return;
    this.outbox.push(message);
    if (this.outbox.length === 1) setImmediate(this.flush);
  }

  private readonly flush = () => {
    const batch = this.outbox;
    this.outbox = [];
    if (this.closedBecause === null && batch.length > 0) this.port.postMessage(batch);
  };

  /** The other side is gone: every call still waiting fails, and later ones fail at once. */
  fail(reason: string): void {
    if (this.closedBecause !== null) return;
    this.closedBecause = reason;
    for (const call of this.waiting.values()) call.reject(new Error(reason));
    this.waiting.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The main thread's side: serves one context thread's port from `bus`. `close()` (or the thread's
 * exit, by `fail`) drops that thread's handlers and consumers, so its requests and events go to no
 * one rather than into a dead port.
 */
export function exposeBus(bus: MemoryBus, port: MessagePort) {
  /** The thread's handlers and consumers, by the id the thread gave them. */
  const registered = new Map<number, port.Closeable>();
  const peer: Peer = new Peer(port, async (message) => {
    switch (message.k) {
      case 'request': {
        // The reply envelope crosses as is: the thread rethrows a DomainError the way a bus does.
        const { timeoutMs, headers } = message;
        return await bus.request(message.subject, message.payload, {
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(headers === undefined ? {} : { headers }),
        });
      }
      case 'handle': {
        const { subject } = message;
        const handler = message.handler;
        // The thread's DomainError comes back rebuilt, so this bus replies with it as with its own.
        registered.set(
          handler,
          await bus.handle(subject, (payload, s, headers) => peer.call({ k: 'serve', handler, subject: s, payload, headers })),
        );
        return;
      }
      case 'publish':
        bus.publishSerialized(message.subject, message.eventId, message.json);
        return;
      case 'consume': {
        const consumer = message.consumer;
        registered.set(
          consumer,
          await bus.consumeSerialized(message.name, message.options, EVENT_BATCH, (jsons) => peer.call({ k: 'events', consumer, jsons })),
        );
        return;
      }
      case 'drop':
        await registered.get(message.registration)?.close();
        registered.delete(message.registration);
        return;
      case 'caught-up':
        return await bus.isCaughtUp(message.name);
      default:
        throw new Error(`thread bus: unexpected ${message.k}`);
    }
  });
  /** Drops the thread's handlers and consumers; calls waiting on it fail (a request answers 503 in time). */
  const close = async (reason = 'the context thread stopped'): Promise<void> => {
    peer.fail(reason);
    const all = [...registered.values()];
    registered.clear();
    await Promise.all(all.map((c) => c.close()));
  };
  port.on('close', () => void close('the context thread closed its bus'));
  return { close };
}

/**
 * A context thread's bus: every operation goes to the main thread's MemoryBus through `port`; its
 * handlers and consumers are called from there. Close it before the thread ends.
 */
export class ThreadBus implements port.Bus {
  readonly retainsEvents = false;
  private readonly peer: Peer;
  private readonly handlers = new Map<number, port.RequestHandler>();
  private readonly consumers = new Map<number, { handler: port.EventHandler; inFlight: number }>();
  private readonly open = new Set<port.Closeable>();
  private nextId = 1;
  private closed = false;

  constructor(
    port: MessagePort,
    private readonly options: { onHandlerError?: (error: unknown, subject: string) => void } = {},
  ) {
    this.peer = new Peer(port, (message) => {
      if (message.k === 'serve') return this.serve(message.handler, message.payload, message.subject, message.headers);
      if (message.k === 'events') return this.handleEvents(message.consumer, message.jsons);
      throw new Error(`thread bus: unexpected ${message.k}`);
    });
  }

  /** A handler's own failures are seen here, where their stack is; only a bare 500 crosses, as on a bus. */
  private async serve(id: number, payload: unknown, subject: string, headers: port.BusHeaders | undefined): Promise<unknown> {
    const handler = this.handlers.get(id);
    if (!handler) throw new BusUnavailableError(subject, 'handler closed');
    try {
      return await handler(payload, subject, headers);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.options.onHandlerError?.(error, subject);
      // A store that cannot be reached crosses as a 503, as the other buses reply (internal/reply.ts).
      if (isEngineUnavailable(error)) throw new DomainError(503, [ENGINE_UNAVAILABLE_MESSAGE]);
      throw new Error(`${subject}: handler failed`);
    }
  }

  /**
   * In order, as many at once as the consumer allows (`ConsumeOptions.inFlight`, else one at a time);
   * answers how many were handled before the first failure, which the main thread redelivers from.
   */
  private async handleEvents(id: number, jsons: string[]): Promise<{ handled: number; error?: string }> {
    const outcome = await handleInFlight(jsons, this.consumers.get(id)?.inFlight ?? 1, async (json) => {
      const consumer = this.consumers.get(id);
      if (!consumer) throw new Error('consumer closed');
      await consumer.handler(JSON.parse(json) as port.EventEnvelope);
    });
    if (outcome.error === undefined) return { handled: outcome.handled };
    return { handled: outcome.handled, error: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) };
  }

  async request<T = unknown>(subject: string, payload: unknown, options: port.RequestOptions = {}): Promise<T> {
    this.assertOpen();
    return this.peer.call<T>({ k: 'request', subject, payload, timeoutMs: options.timeoutMs, headers: options.headers });
  }

  async handle(subject: string, handler: port.RequestHandler): Promise<port.Closeable> {
    this.assertOpen();
    const id = this.nextId++;
    this.handlers.set(id, handler);
    await this.peer.call({ k: 'handle', handler: id, subject });
    return this.track(async () => {
      this.handlers.delete(id);
      await this.peer.call({ k: 'drop', registration: id }).catch(() => undefined);
    });
  }

  /**
   * Done once sent: a port delivers in order, so the main thread logs the event before anything this
   * thread sends after it (a settle answer saying it is published, say). Waiting for an answer would
   * put two wake-ups between a relay's events. It is no less durable than the memory bus itself,
   * which keeps nothing across a restart (relays publish their log again then).
   */
  async publish(subject: string, event: port.EventEnvelope): Promise<void> {
    this.assertOpen();
    this.peer.send({ k: 'publish', subject, eventId: event.event_id, json: envelopeJson(event) });
  }

  async consume(name: string, options: port.ConsumeOptions, handler: port.EventHandler): Promise<port.Closeable> {
    this.assertOpen();
    const id = this.nextId++;
    this.consumers.set(id, { handler, inFlight: Math.max(1, options.inFlight ?? 1) });
    try {
      await this.peer.call({ k: 'consume', consumer: id, name, options });
    } catch (error) {
      this.consumers.delete(id);
      throw error;
    }
    return this.track(async () => {
      // Closed on the main thread first: an event in flight is answered before the handler goes.
      await this.peer.call({ k: 'drop', registration: id }).catch(() => undefined);
      this.consumers.delete(id);
    });
  }

  isCaughtUp(consumer: string): Promise<boolean> {
    return this.peer.call<boolean>({ k: 'caught-up', name: consumer });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.open].map((c) => c.close()));
    this.peer.fail('bus is closed');
    // The bus owns its port: closing it tells the main thread, which drops what is left of this side.
    this.peer.port.close();
  }

  private track(close: () => Promise<void>): port.Closeable {
    let done: Promise<void> | null = null;
    const closeable: port.Closeable = {
      close: () => {
        done ??= (this.open.delete(closeable), close());
        return done;
      },
    };
    this.open.add(closeable);
    return closeable;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}
