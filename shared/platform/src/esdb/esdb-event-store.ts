import type { KurrentDBClient, Position } from '@kurrent/kurrentdb-client';
import { EventIdConflictError, WrongExpectedRevisionError } from '../ports/event-store.ts';
import type * as port from '../ports/event-store.ts';
import { repeatedAppend, revisionMatches, type StoredEventId } from '../internal/append-rules.ts';
import {
  assertNamespace,
  checkpointData,
  checkpointFromData,
  checkpointPosition,
  checkpointStream,
  clientConnectionString,
  describeFailure,
  eventPosition,
  fromResolved,
  pinnedState,
  serverPosition,
  serverStream,
  toEventData,
  type ConvertedEvent,
} from './esdb-mapping.ts';
import { checkpointMark, EsdbSubscription, type SubscriptionSource } from './esdb-subscription.ts';

export interface EsdbEventStoreOptions {
  /** `kurrentdb://host:2113?tls=false` (or `esdb://…`, the same server). */
  connectionString: string;
  /**
   * Server-side prefix of this store's streams, one per context sharing the server (default
   * `renopath`; `openContextStorage` passes `renopath_<context>`). Letters, digits and `_`.
   */
  namespace?: string;
  /** gRPC keepalive ping interval and ack timeout (ms, default 10 000 each) unless the URL sets them. */
  keepAliveIntervalMs?: number;
  keepAliveTimeoutMs?: number;
  /**
   * How often a filtered subscription reports progress: after this many server search windows
   * (32 events considered each) without a matching event (default 10). The client's own default,
   * 1, would report every 32 foreign events.
   */
  checkpointInterval?: number;
  /** Events a subscription reads ahead of its consumer (the source's highWaterMark, default 64). */
  subscriptionBuffer?: number;
  /** Pause before resubscribing after a drop: doubles from `retryInitialMs` up to `retryMaxMs` (default 250 ms, 30 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** Told about every dropped subscription before it resubscribes (e.g. to log it). */
  onSubscriptionDropped?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Streams whose event ids and append keys are kept in memory between appends (default 1000). */
  maxCachedStreams?: number;
}

/** What the adapter knows of a stream: every event id and append key, up to `revision`. */
interface StreamView {
  revision: bigint | null;
  byId: Map<string, StoredEventId>;
  keys: Map<string, port.AppendResult>;
}

/**
 * The client module, loaded when a store is opened rather than when the platform is imported: it
 * takes about a second to load (gRPC, generated protobuf code, a native Rust addon that exists only
 * for some platforms), which services on other stores should neither pay nor fail on.
 */
type EsdbModule = typeof import('@kurrent/kurrentdb-client');

const emptyView = (): StreamView => ({ revision: null, byId: new Map(), keys: new Map() });

/** Attempts of an `any` append that keeps losing the race for the stream's end. */
const MAX_ATTEMPTS = 10;

/**
 * Event store on KurrentDB / EventStoreDB, through @kurrent/kurrentdb-client 1.3 (the maintained
 * successor of @eventstore/db-client for the same servers and gRPC protocol; the old package is
 * frozen at 6.x and its `expectedRevision` option is this one's `streamState`).
 *
 * Sharing one server: every context has a namespace, and a port stream `estate-1` is the server
 * stream `<namespace>-estate-1`. readAll, headPosition and subscriptions read $all with a
 * server-side stream-name prefix filter `<namespace>-` (the port's `streamPrefixes` become
 * `<namespace>-<prefix>`), so a context sees only its streams. The prefix never starts with `$`,
 * so system streams are out; `$` event types inside the namespace are dropped on the client (a
 * server filter is either on stream names or on event types, not both, so `excludeSystemEvents`
 * cannot be combined with the prefix filter).
 *
 * Positions: see `eventPosition` in esdb-mapping.ts (2 x log offset + 1; checkpoints are even).
 *
 * Appends: ESDB dedupes a retried append by event ids only when the expected revision is exact
 * and lies behind the stream's end; with `any`, or with the same ids sent at the current end, it
 * writes them again. So the adapter checks itself, like the SQL adapters: it keeps a view of each
 * stream's event ids and append keys (read from the server, cached and extended by reading only
 * the new tail), applies the shared append rules to it, and then appends with the stream state
 * pinned to the revision it checked (also for `any`). A writer that got in between makes the
 * server refuse the pinned append, and the adapter re-reads and decides again; an `any` append
 * retries, the others answer WrongExpectedRevisionError with the actual revision. Appends to one
 * stream from one process are queued in call order, so chained appends issued together succeed.
 * Ids are checked within their stream only: ESDB has no index by event id across streams.
 *
 * Append keys (`AppendOptions.idempotencyKey`) ride in the metadata of the append's last event, so
 * they are written atomically with it, and are found in the stream view. Because every append is
 * pinned to the revision whose view had no such key, two racing appends under one key cannot both
 * write: the loser is refused, re-reads, and answers the winner's result. No race is accepted. A
 * key given with zero events is not recorded (there is no event to carry it).
 *
 * The answer's position is read back from the stream: the append response carries the commit
 * position of the write, not the position of its last event.
 *
 * Checkpoints (`checkpoints`): one stream `<namespace>.checkpoint-<consumer>` per consumer, one
 * event per save, with stream metadata maxCount 1 so only the last one is kept. A stream rather
 * than a side database keeps the adapter to one server; the `.` keeps these streams out of every
 * namespace's prefix.
 *
 * Time stamps: `occurred_at` and the port's event id are stored in the event's metadata and read
 * back verbatim; the server's `created` is never used.
 */
export class EsdbEventStore implements port.EventStore {
  readonly checkpoints: EsdbCheckpointStore;
  readonly namespace: string;
  private readonly client: KurrentDBClient;
  private readonly views = new Map<string, StreamView>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly subscriptions = new Set<EsdbSubscription>();
  private readonly maxCachedStreams: number;
  private closed = false;

  private constructor(
    private readonly options: EsdbEventStoreOptions,
    private readonly esdb: EsdbModule,
  ) {
    this.namespace = assertNamespace(options.namespace ?? 'renopath');
    const url = clientConnectionString(options.connectionString, {
      intervalMs: options.keepAliveIntervalMs ?? 10_000,
      timeoutMs: options.keepAliveTimeoutMs ?? 10_000,
    });
    this.client = esdb.KurrentDBClient.connectionString(url);
    this.maxCachedStreams = options.maxCachedStreams ?? 1000;
    this.checkpoints = new EsdbCheckpointStore(this.client, esdb, this.namespace, options.connectionString);
  }

  /** Opens the store; the client connects lazily, on the first call that needs the server. */
  static async open(options: EsdbEventStoreOptions): Promise<EsdbEventStore> {
    return new EsdbEventStore(options, await import('@kurrent/kurrentdb-client'));
  }

  // The result's type is the port's (\`implements\` checks it).
  async append(stream: string, events: port.NewEvent[], expected: port.ExpectedRevision, options: port.AppendOptions = {}) {
    this.assertOpen();
    return this.guard(`append to ${stream}`, () => this.appendChecked(stream, events, expected, options));
  }

  private async appendChecked(
    stream: string,
    events: port.NewEvent[],
    expected: port.ExpectedRevision,
    options: port.AppendOptions,
  ): Promise<port.AppendResult> {
    const ids = events.map((e) => e.event_id);
    if (new Set(ids).size !== ids.length) {
      throw new EventIdConflictError(stream, ids, 'the same event id appears twice in one append');
    }
    const key = options.idempotencyKey;
    const data = events.map((e, i) => toEventData(stream, e, i === events.length - 1 ? key : undefined));
    return this.serialized(stream, async () => {
      // The cached view is tried first (no read before the append): it can only be behind the
      // server, and a pinned append on a view that is behind is refused. Whatever refuses or
      // repeats an append is decided on a view read just now.
      let view = this.views.get(stream);
      let fresh = false;
      for (let attempt = 1; ; attempt++) {
        if (!view) {
          view = await this.refresh(stream);
          fresh = true;
        }
        const earlier = key === undefined ? undefined : view.keys.get(key);
        if (earlier) return earlier;
        const stored = ids.flatMap((id) => view!.byId.get(id) ?? []);
        const matches = revisionMatches(expected, view.revision);
        if (!fresh && (stored.length > 0 || !matches || events.length === 0)) {
          view = undefined;
          continue;
        }
        if (stored.length > 0) return repeatedAppend(stream, ids, expected, stored, 'increasing');
        if (!matches) throw new WrongExpectedRevisionError(stream, expected, view.revision);
        if (events.length === 0) return { next_revision: view.revision ?? -1n, position: await this.head() };
        try {
          await this.client.appendToStream(serverStream(this.namespace, stream), data, { streamState: pinnedState(view.revision) });
        } catch (error) {
          // Someone appended since the view was read (a partly repeated batch arrives as an invalid
          // transaction): read again and decide on what is there now.
          if (!(error instanceof this.esdb.WrongExpectedVersionError || error instanceof this.esdb.InvalidTransactionError)) throw error;
          view = undefined;
          fresh = false;
          if (attempt < MAX_ATTEMPTS) continue;
          throw new WrongExpectedRevisionError(stream, expected, (await this.refresh(stream)).revision);
        }
        view = await this.refresh(stream);
        const last = view.byId.get(ids[ids.length - 1]!);
        if (!last) throw new Error(`stream ${stream}: the append succeeded but its events cannot be read back`);
        return { next_revision: last.revision, position: last.position };
      }
    });
  }

  async appendedUnder(stream: string, idempotencyKey: string): Promise<port.AppendResult | null> {
    this.assertOpen();
    const view = await this.guard(`read ${stream}`, () => this.refresh(stream));
    return view.keys.get(idempotencyKey) ?? null;
  }

  /** The stream's view, brought up to date by reading what was appended after it. */
  private async refresh(stream: string): Promise<StreamView> {
    let view = this.views.get(stream);
    const from = view?.revision == null ? 0n : view.revision + 1n;
    const read = await this.readConverted(stream, from);
    if (read === null) {
      // Absent (or deleted behind our back): forget what we knew.
      view = emptyView();
    } else {
      view ??= emptyView();
      const known = view.revision;
      for (const { event, appendKey } of read.events) {
        // Two refreshes of one stream may run at once; each adds only what is new to the view.
        if (known !== null && event.revision <= known) continue;
        view.byId.set(event.event_id, { event_id: event.event_id, stream, revision: event.revision, position: event.position });
        if (appendKey !== undefined) view.keys.set(appendKey, { next_revision: event.revision, position: event.position });
      }
      // Counted from every event read, also those passed over ($ types), or a pinned append would never fit.
      if (read.last !== null && (view.revision === null || read.last > view.revision)) view.revision = read.last;
    }
    this.views.delete(stream);
    this.views.set(stream, view);
    if (this.views.size > this.maxCachedStreams) this.views.delete(this.views.keys().next().value!);
    return view;
  }

  /** Events of a port stream from `fromRevision`, and the revision of the last one read; null when the stream does not exist. */
  private async readConverted(
    stream: string,
    fromRevision: bigint,
    maxCount?: number,
  ): Promise<{ events: ConvertedEvent[]; last: bigint | null } | null> {
    const events: ConvertedEvent[] = [];
    let last: bigint | null = null;
    try {
      const reading = this.client.readStream(serverStream(this.namespace, stream), {
        fromRevision,
        ...(maxCount === undefined ? {} : { maxCount }),
      });
      for await (const resolved of reading) {
        if (resolved.event) last = resolved.event.revision;
        const converted = fromResolved(this.namespace, resolved);
        if (converted) events.push(converted);
      }
    } catch (error) {
      if (error instanceof this.esdb.StreamNotFoundError) return null;
      throw error;
    }
    return { events, last };
  }

  /** Runs appends to one stream one after another, in call order. */
  private async serialized<T>(stream: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(stream) ?? Promise.resolve();
    let release!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (release = resolve)));
    this.locks.set(stream, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(stream) === tail) this.locks.delete(stream);
    }
  }

  async readStream(stream: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    this.assertOpen();
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const read = await this.guard(`read ${stream}`, () => this.readConverted(stream, options.fromRevision ?? 0n, options.maxCount));
    return (read?.events ?? []).map((c) => c.event);
  }

  async readAll(options: port.ReadAllOptions = {}): Promise<port.RecordedEvent[]> {
    this.assertOpen();
    return this.guard('read $all', () => this.readAllPages(options));
  }

  private async readAllPages(options: port.ReadAllOptions): Promise<port.RecordedEvent[]> {
    const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: port.RecordedEvent[] = [];
    let after = options.after ?? 0n;
    while (events.length < wanted) {
      // The read starts at `after` itself (inclusive), hence one more; $-typed events are passed
      // over, hence another page when a full one left us short.
      const page = Number.isFinite(wanted) ? wanted - events.length + 1 : undefined;
      let served = 0;
      const reading = this.client.readAll({
        fromPosition: serverPosition(after),
        filter: this.esdb.streamNameFilter({ prefixes: [`${this.namespace}-`] }),
        ...(page === undefined ? {} : { maxCount: page }),
      });
      let last = after;
      for await (const resolved of reading) {
        served++;
        const position = resolved.event?.position;
        if (!position) continue;
        const at = rawPosition(position);
        if (at <= after) continue;
        if (at > last) last = at;
        const converted = fromResolved(this.namespace, resolved);
        if (converted && events.length < wanted) events.push(converted.event);
      }
      if (page === undefined || served < page || last === after) break;
      after = last;
    }
    return events;
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return this.guard('read $all', () => this.head());
  }

  private async head(): Promise<bigint> {
    const reading = this.client.readAll({
      direction: 'backwards',
      fromPosition: 'end',
      maxCount: 1,
      filter: this.esdb.streamNameFilter({ prefixes: [`${this.namespace}-`] }),
    });
    let head = 0n;
    for await (const resolved of reading) {
      if (resolved.event?.position) head = rawPosition(resolved.event.position);
    }
    return head;
  }

  subscribeToAll(options: port.SubscribeOptions = {}): port.Subscription {
    this.assertOpen();
    const checkpointInterval = this.options.checkpointInterval ?? 10;
    const highWaterMark = this.options.subscriptionBuffer ?? 64;
    const subscription = new EsdbSubscription(
      {
        namespace: this.namespace,
        retryInitialMs: this.options.retryInitialMs ?? 250,
        retryMaxMs: this.options.retryMaxMs ?? 30_000,
        ...(this.options.onSubscriptionDropped ? { onDrop: this.options.onSubscriptionDropped } : {}),
        openSource: (fromPosition, prefixes) =>
          this.client.subscribeToAll(
            {
              fromPosition,
              filter: this.esdb.streamNameFilter({
                prefixes,
                checkpointInterval,
                // Pushed into the subscription's own output, between the events it follows and precedes.
                checkpointReached: (source, position) => {
                  source.push(checkpointMark(position));
                },
              }),
            },
            { highWaterMark },
          ) as SubscriptionSource,
      },
      options,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.views.clear();
    await this.client.dispose();
  }

  private async guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw describeFailure(error, this.options.connectionString, operation);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/** An event's position; a foreign record of an explicit transaction counts as the point before it. */
function rawPosition(position: Position): bigint {
  return position.commit === position.prepare ? eventPosition(position) : checkpointPosition(position);
}

/** Consumer checkpoints as streams of the store's namespace (see EsdbEventStore). */
export class EsdbCheckpointStore implements port.CheckpointStore {
  /** Streams whose maxCount was set by this process. */
  private readonly limited = new Set<string>();

  constructor(
    private readonly client: KurrentDBClient,
    private readonly esdb: EsdbModule,
    private readonly namespace: string,
    private readonly server: string,
  ) {}

  async load(consumer: string): Promise<bigint> {
    try {
      return await this.loadLast(consumer);
    } catch (error) {
      throw describeFailure(error, this.server, `load checkpoint ${consumer}`);
    }
  }

  private async loadLast(consumer: string): Promise<bigint> {
    try {
      const reading = this.client.readStream(checkpointStream(this.namespace, consumer), {
        direction: 'backwards',
        fromRevision: 'end',
        maxCount: 1,
      });
      for await (const resolved of reading) return checkpointFromData(consumer, resolved.event?.data);
    } catch (error) {
      if (error instanceof this.esdb.StreamNotFoundError) return 0n;
      throw error;
    }
    return 0n;
  }

  async save(consumer: string, position: bigint): Promise<void> {
    try {
      await this.write(consumer, position);
    } catch (error) {
      throw describeFailure(error, this.server, `save checkpoint ${consumer}`);
    }
  }

  private async write(consumer: string, position: bigint): Promise<void> {
    const stream = checkpointStream(this.namespace, consumer);
    await this.client.appendToStream(stream, this.esdb.jsonEvent({ type: 'CheckpointSaved', data: checkpointData(position) }), {
      streamState: 'any',
    });
    // Once per process rather than only on the stream's first event: a lost metadata write heals at the next start.
    if (!this.limited.has(stream)) {
      await this.client.setStreamMetadata(stream, { maxCount: 1 });
      this.limited.add(stream);
    }
  }
}

export function openEsdbEventStore(options: EsdbEventStoreOptions): Promise<EsdbEventStore> {
  return EsdbEventStore.open(options);
}
