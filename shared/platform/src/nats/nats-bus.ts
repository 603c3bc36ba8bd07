import {
  connect,
  createInbox,
  headers as natsHeaders,
  nanos,
  NoRespondersError,
  RequestError,
  TimeoutError,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription as NatsSubscription,
} from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { BusUnavailableError } from '../ports/bus.ts';
import type * as port from '../ports/bus.ts';
import { backoff, sleep } from '../internal/async.ts';
import { serveRequest, unwrapReply } from '../internal/reply.ts';
import { anySubjectMatches } from '../internal/subjects.ts';
import { envelopeJson } from '../internal/stored-json.ts';

export interface NatsBusOptions {
  servers: string | string[];
  /** JetStream stream holding the domain events (default `RENOPATH_EVENTS`). */
  streamName?: string;
  /**
   * Namespace put in front of every subject on the wire (`<prefix>.cmd.…`, `<prefix>.evt.…`), so
   * that test runs or tenants sharing one NATS server never see each other's traffic. Default none.
   */
  subjectPrefix?: string;
  /** Connection name, shown by the NATS server's monitoring. */
  name?: string;
  /** Default request timeout (ms). */
  requestTimeoutMs?: number;
  /** Delay before redelivering an event whose handler threw; doubles per delivery up to `maxDelayMs`. */
  redelivery?: { initialDelayMs?: number; maxDelayMs?: number };
  /** How long the server waits for an ack before redelivering (ms); long handlers send progress. */
  ackWaitMs?: number;
  /** JetStream duplicate window for event ids, used when the stream is created (ms). */
  duplicateWindowMs?: number;
  /** Sees errors that handlers raise which are not DomainErrors (the requester only gets a 500). */
  onHandlerError?: (error: unknown, subject: string) => void;
}

const QUEUE_GROUP = 'renopath';
const EVENT_ROOT = 'evt';
/**
 * How long the server waits for an event's ack before it hands the event to another instance. A
 * handler that takes longer says it is still working (every third of it), so this bounds only how
 * long an event stays with an instance that died or stopped consuming (a replica that lost its
 * lease, whose pulled event is never handled): short, so a takeover does not stall the consumer.
 */
const DEFAULT_ACK_WAIT_MS = 5_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// Like the in-memory bus: `undefined` travels as an empty body and comes back as `undefined`.
const encode = (value: unknown): Uint8Array => (value === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(value)));
const decode = (data: Uint8Array): unknown => (data.length === 0 ? undefined : JSON.parse(decoder.decode(data)));

/**
 * A reply larger than the server's max_payload (1 MiB by default) cannot travel as one message: the
 * handler sends this small marker instead, keeps the encoded reply for a moment and streams it in
 * parts to whoever asks on `subject` (an inbox of its own), ending with an empty message.
 */
interface ChunkedReply {
  chunked: { subject: string; parts: number; bytes: number };
}
const isChunked = (value: unknown): value is ChunkedReply =>
  typeof value === 'object' && value !== null && 'chunked' in value && typeof (value as ChunkedReply).chunked?.subject === 'string';
/** What a message carries besides its payload stays well under this (subjects, protocol line). */
const PAYLOAD_HEADROOM = 4 * 1024;
/** How long a large reply waits for its requester to fetch it before it is dropped (ms). */
const CHUNKED_REPLY_TTL_MS = 30_000;

/**
 * An event larger than max_payload: its envelope is kept in the object store bucket
 * `<stream>_large` under its event id, and the stream carries this marker in its place (with the
 * event id as message id, so a re-publish is still dropped). Consumers read the envelope back.
 */
interface LargeEvent {
  large_event: { name: string; bytes: number };
}
const isLargeEvent = (value: unknown): value is LargeEvent =>
  typeof value === 'object' && value !== null && 'large_event' in value && typeof (value as LargeEvent).large_event?.name === 'string';

/** A request's headers as NATS message headers; undefined when there are none. */
function toNatsHeaders(values: port.BusHeaders | undefined): MsgHdrs | undefined {
  if (!values) return undefined;
  const entries = Object.entries(values);
  if (entries.length === 0) return undefined;
  const hdrs = natsHeaders();
  for (const [name, value] of entries) hdrs.set(name, value);
  return hdrs;
}

/** A message's NATS headers as the handler sees them (names in lower case); undefined when it has none. */
function fromNatsHeaders(hdrs: MsgHdrs | undefined): port.BusHeaders | undefined {
  if (!hdrs) return undefined;
  const values: Record<string, string> = {};
  for (const name of hdrs.keys()) values[name.toLowerCase()] = hdrs.get(name);
  return values;
}

/** The server's answer that the stream or the consumer does not exist (JetStream API error codes). */
function isNotFound(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamNotFound || error.code === JetStreamApiCodes.ConsumerNotFound)
  );
}

/** The distributed bus: NATS core request/reply with queue groups, JetStream for domain events. */
export class NatsBus implements port.Bus {
  /** JetStream keeps the events and the durable consumers' positions. */
  readonly retainsEvents = true;
  private readonly handlers = new Set<NatsSubscription>();
  private readonly consumers = new Set<port.Closeable>();
  private readonly requestTimeoutMs: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly ackWaitMs: number;
  private closed = false;
  private largeEventStore: Promise<ObjectStore> | null = null;
  /** False from a lost connection until it is back: requests meanwhile fail at once instead of after their timeout. */
  private connected = true;
  /** The requests in flight, failed when the connection is lost instead of waiting out their timeout. */
  private readonly inFlight = new Set<(reason: string) => void>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly streamName: string,
    private readonly options: NatsBusOptions,
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5000;
    this.initialDelayMs = options.redelivery?.initialDelayMs ?? 1000;
    this.maxDelayMs = options.redelivery?.maxDelayMs ?? 60_000;
    this.ackWaitMs = options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
    void this.followConnection();
  }

  private async followConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        for (const fail of this.inFlight) fail('connection to NATS lost');
      } else if (status.type === 'reconnect') {
        this.connected = true;
      }
    }
  }

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: options.servers,
      ...(options.name ? { name: options.name } : {}),
      // A NATS restart or outage of any length: keep reconnecting (nats.js gives up after 10 tries by
      // default, leaving a process that runs but never talks again). Requests meanwhile fail at once (503).
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
    try {
      const jsm = await jetstreamManager(nc);
      const bus = new NatsBus(nc, jetstream(nc), jsm, options.streamName ?? 'RENOPATH_EVENTS', options);
      await bus.ensureStream(options.duplicateWindowMs ?? 120_000);
      return bus;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  private wire(subject: string): string {
    return this.options.subjectPrefix ? `${this.options.subjectPrefix}.${subject}` : subject;
  }

  private unwire(subject: string): string {
    const prefix = this.options.subjectPrefix;
    return prefix && subject.startsWith(`${prefix}.`) ? subject.slice(prefix.length + 1) : subject;
  }

  private async ensureStream(duplicateWindowMs: number): Promise<void> {
    const subject = this.wire(`${EVENT_ROOT}.>`);
    try {
      const info = await this.jsm.streams.info(this.streamName);
      if (!info.config.subjects?.includes(subject)) {
        throw new Error(`stream ${this.streamName} exists but does not capture ${subject}`);
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await this.jsm.streams.add({
        name: this.streamName,
        subjects: [subject],
        storage: StorageType.File,
        duplicate_window: nanos(duplicateWindowMs),
      });
    }
  }

  async request<T = unknown>(subject: string, payload: unknown, options: port.RequestOptions = {}): Promise<T> {
    this.assertOpen();
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    // nats.js would hold the request until it reconnects or the timeout passes: the caller learns now.
    if (!this.connected) throw new BusUnavailableError(subject, 'not connected to NATS (reconnecting)');
    let reply: Msg;
    try {
      let fail!: (reason: string) => void;
      const lost = new Promise<never>((_, reject) => (fail = (reason) => reject(new BusUnavailableError(subject, reason))));
      this.inFlight.add(fail);
      try {
        // The trace context travels in the message's headers, beside the payload (W3C traceparent).
        const hdrs = toNatsHeaders(options.headers);
        reply = await Promise.race([
          this.nc.request(this.wire(subject), encode(payload), { timeout: timeoutMs, ...(hdrs ? { headers: hdrs } : {}) }),
          lost,
        ]);
      } finally {
        this.inFlight.delete(fail);
      }
    } catch (error) {
      if (error instanceof BusUnavailableError) throw error;
      // A failed request is a RequestError whose cause says why (no responders); a timeout is its own type.
      if (error instanceof NoRespondersError || (error instanceof RequestError && error.isNoResponders())) {
        throw new BusUnavailableError(subject, 'no responders');
      }
      if (error instanceof TimeoutError || (error instanceof RequestError && error.cause instanceof TimeoutError)) {
        throw new BusUnavailableError(subject, `no reply within ${timeoutMs} ms`);
      }
      throw new BusUnavailableError(subject, error instanceof Error ? error.message : String(error));
    }
    let raw = decode(reply.data);
    if (isChunked(raw)) raw = await this.fetchChunked(subject, raw, timeoutMs);
    return unwrapReply<T>(raw, subject);
  }

  /** The requester's side of a large reply: every part from the handler's inbox, then one JSON decode. */
  private async fetchChunked(subject: string, marker: ChunkedReply, timeoutMs: number): Promise<unknown> {
    const parts: Uint8Array[] = [];
    let received = 0;
    try {
      const messages = await this.nc.requestMany(marker.chunked.subject, new Uint8Array(0), {
        strategy: 'sentinel',
        maxWait: timeoutMs,
      });
      for await (const msg of messages) {
        if (msg.data.length === 0) break;
        parts.push(msg.data);
        received += msg.data.length;
      }
    } catch (error) {
      throw new BusUnavailableError(subject, `large reply not fetched: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (parts.length !== marker.chunked.parts || received !== marker.chunked.bytes) {
      throw new BusUnavailableError(
        subject,
        `large reply incomplete: ${received} of ${marker.chunked.bytes} bytes in ${parts.length} of ${marker.chunked.parts} parts`,
      );
    }
    const whole = new Uint8Array(received);
    let offset = 0;
    for (const part of parts) {
      whole.set(part, offset);
      offset += part.length;
    }
    return decode(whole);
  }

  async handle(subject: string, handler: port.RequestHandler): Promise<port.Closeable> {
    this.assertOpen();
    const subscription = this.nc.subscribe(this.wire(subject), {
      queue: QUEUE_GROUP,
      // Requests are served concurrently; each reply goes out when its handler settles.
      callback: (error, msg) => {
        if (!error) void this.serve(msg, handler);
      },
    });
    this.handlers.add(subscription);
    // The server knows about the subscription once flushed, so a request right after does not miss it.
    await this.nc.flush();
    return {
      close: async () => {
        if (!this.handlers.delete(subscription)) return;
        subscription.unsubscribe();
        if (!this.nc.isClosed()) await this.nc.flush();
      },
    };
  }

  private async serve(msg: Msg, handler: port.RequestHandler): Promise<void> {
    const subject = this.unwire(msg.subject);
    const reply = await serveRequest(
      (_, s) => handler(decode(msg.data), s, fromNatsHeaders(msg.headers)),
      undefined,
      subject,
      this.options.onHandlerError,
    );
    if (this.nc.isClosed()) return;
    // serve() runs unawaited (a subscription callback): whatever goes wrong in replying (a closed
    // connection, a payload the server refuses) is reported here, never left as an unhandled rejection.
    try {
      const data = encode(reply);
      if (data.length <= this.maxPayload()) msg.respond(data);
      else await this.respondChunked(msg, data);
    } catch (error) {
      this.options.onHandlerError?.(error, `${subject} (reply)`);
    }
  }

  private maxPayload(): number {
    return Math.max(64 * 1024, (this.nc.info?.max_payload ?? 1024 * 1024) - PAYLOAD_HEADROOM);
  }

  /** The handler's side of a large reply (ChunkedReply): parts on request, then an empty end marker. */
  private async respondChunked(msg: Msg, data: Uint8Array): Promise<void> {
    const size = this.maxPayload();
    const parts = Math.ceil(data.length / size);
    const inbox = createInbox();
    const subscription = this.nc.subscribe(inbox, {
      max: 1,
      callback: (error, fetch) => {
        clearTimeout(expiry);
        if (error || !fetch.reply) return;
        try {
          for (let i = 0; i < parts; i++) this.nc.publish(fetch.reply, data.subarray(i * size, (i + 1) * size));
          this.nc.publish(fetch.reply, new Uint8Array(0));
        } catch (err) {
          this.options.onHandlerError?.(err, `${inbox} (large reply)`);
        }
      },
    });
    // A requester that timed out never fetches: the reply is dropped after a while.
    const expiry = setTimeout(() => subscription.unsubscribe(), CHUNKED_REPLY_TTL_MS);
    expiry.unref();
    // The server knows the inbox before the requester learns its name.
    await this.nc.flush();
    const marker: ChunkedReply = { chunked: { subject: inbox, parts, bytes: data.length } };
    msg.respond(encode(marker));
  }

  async publish(subject: string, event: port.EventEnvelope): Promise<void> {
    this.assertOpen();
    try {
      let data: Uint8Array = encoder.encode(envelopeJson(event));
      if (data.length > this.maxPayload()) {
        const bucket = await this.largeEvents();
        // A re-publish (after a relay's restart) finds it there: rewriting it would purge the parts a
        // consumer may be reading.
        if (!(await bucket.info(event.event_id))) await bucket.putBlob({ name: event.event_id }, data);
        data = encode({ large_event: { name: event.event_id, bytes: data.length } } satisfies LargeEvent);
      }
      // The message id makes JetStream drop a re-published event within the duplicate window; the
      // trace that appended the event goes in the message's headers as well as in its metadata.
      const hdrs = toNatsHeaders(event.metadata.traceparent ? { traceparent: event.metadata.traceparent } : undefined);
      await this.js.publish(this.wire(subject), data, { msgID: event.event_id, ...(hdrs ? { headers: hdrs } : {}) });
    } catch (error) {
      throw new BusUnavailableError(subject, `publish failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The bucket of LargeEvent envelopes, made on first use; kept as long as the events' stream. */
  private largeEvents(): Promise<ObjectStore> {
    this.largeEventStore ??= new Objm(this.js).create(`${this.streamName}_large`, { storage: StorageType.File }).catch((error: unknown) => {
      this.largeEventStore = null;
      throw error;
    });
    return this.largeEventStore;
  }

  private async decodeEvent(data: Uint8Array): Promise<port.EventEnvelope> {
    const raw = decode(data);
    if (!isLargeEvent(raw)) return raw as port.EventEnvelope;
    const blob = await (await this.largeEvents()).getBlob(raw.large_event.name);
    if (!blob) throw new Error(`large event ${raw.large_event.name} is missing from ${this.streamName}_large`);
    return decode(blob) as port.EventEnvelope;
  }

  async consume(consumer: string, options: port.ConsumeOptions, handler: port.EventHandler): Promise<port.Closeable> {
    this.assertOpen();
    const patterns = options.subjects.map((s) => this.wire(s));
    // A 2.9 server filters on one subject only: several subjects are filtered here, on the client.
    const filter = patterns.length === 1 ? patterns[0]! : this.wire(`${EVENT_ROOT}.>`);
    await this.ensureConsumer(consumer, filter, options.transient);

    const stop = new AbortController();
    const current: { messages?: ConsumerMessages } = {};
    const running = this.runConsumer(consumer, patterns, handler, stop.signal, current);
    const closeable: port.Closeable = {
      close: async () => {
        stop.abort();
        await current.messages?.close();
        await running;
        this.consumers.delete(closeable);
      },
    };
    this.consumers.add(closeable);
    return closeable;
  }

  async isCaughtUp(consumer: string): Promise<boolean> {
    this.assertOpen();
    try {
      const info = await this.jsm.consumers.info(this.streamName, consumer);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  private async ensureConsumer(name: string, filter: string, transient?: port.ConsumeOptions['transient']): Promise<void> {
    try {
      const info = await this.jsm.consumers.info(this.streamName, name);
      if (info.config.filter_subject !== filter || info.config.ack_wait !== nanos(this.ackWaitMs)) {
        await this.jsm.consumers.update(this.streamName, name, { filter_subject: filter, ack_wait: nanos(this.ackWaitMs) });
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await this.jsm.consumers.add(this.streamName, {
        durable_name: name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: transient ? DeliverPolicy.New : DeliverPolicy.All,
        ...(transient ? { inactive_threshold: nanos(transient.idleExpiryMs) } : {}),
        filter_subject: filter,
        // One unacknowledged event at a time across every instance: delivery stays in order.
        max_ack_pending: 1,
        ack_wait: nanos(this.ackWaitMs),
        max_deliver: -1,
      });
    }
  }

  private async runConsumer(
    name: string,
    patterns: string[],
    handler: port.EventHandler,
    stop: AbortSignal,
    current: { messages?: ConsumerMessages },
  ): Promise<void> {
    let attempt = 0;
    while (!stop.aborted) {
      try {
        const consumer = await this.js.consumers.get(this.streamName, name);
        const messages = await consumer.consume({ max_messages: 1 });
        current.messages = messages;
        if (stop.aborted) {
          await messages.close();
          break;
        }
        for await (const msg of messages) {
          // A message that arrives while closing is handed back at once instead of after ack_wait.
          if (stop.aborted) msg.nak();
          else await this.deliver(msg, patterns, handler);
          attempt = 0;
        }
        if (!stop.aborted) throw new Error(`consumer ${name}: message iterator ended`);
      } catch (error) {
        if (stop.aborted) break;
        this.options.onHandlerError?.(error, `consumer ${name}`);
        await sleep(backoff(attempt, 200, 10_000), stop);
        attempt += 1;
      }
    }
  }

  private async deliver(msg: JsMsg, patterns: string[], handler: port.EventHandler): Promise<void> {
    if (!anySubjectMatches(patterns, msg.subject)) {
      await msg.ackAck();
      return;
    }
    // Tells the server a long handler is still working, so it does not redeliver meanwhile.
    const progress = setInterval(() => msg.working(), Math.max(1000, this.ackWaitMs / 3));
    let handled = false;
    try {
      await handler(await this.decodeEvent(msg.data));
      handled = true;
    } catch (error) {
      this.options.onHandlerError?.(error, this.unwire(msg.subject));
      msg.nak(backoff(msg.info.deliveryCount - 1, this.initialDelayMs, this.maxDelayMs));
    } finally {
      clearInterval(progress);
    }
    // Waiting for the server's confirmation means a consumer closed right after never replays this event.
    if (handled) await msg.ackAck();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((c) => c.close()));
    for (const subscription of this.handlers) subscription.unsubscribe();
    this.handlers.clear();
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}

export function connectNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  return NatsBus.connect(options);
}
