import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope } from '../ports/bus.ts';
import type { CheckpointStore, EventStore, RecordedEvent } from '../ports/event-store.ts';
import { backoff, sleep } from '../internal/async.ts';
import { storedJsonOf, withStoredJson } from '../internal/stored-json.ts';
import type { Leadership } from './context-lease.ts';
import { FollowLoop, PositionWaiters } from './lease-follower.ts';
import { lagBehind, watchFollower } from '../observability/metrics.ts';

export function toEnvelope(context: string, e: RecordedEvent): EventEnvelope {
  const { event_id, type, stream, occurred_at } = e;
  const fields = { context, event_id, type, stream, revision: Number(e.revision), position: Number(e.position), occurred_at };
  // An event read with its stored text keeps it unparsed, for the bus to send as it is.
  const stored = storedJsonOf(e);
  return stored ? (withStoredJson(fields, stored) as EventEnvelope) : { ...fields, data: e.data, metadata: e.metadata };
}

/**
 * A stream whose name starts with `_` is the context's own business, kept in its store for its
 * replicas (identity's signing keys): the relay passes over its events, which are no published event.
 */
export const isPrivateStream = (stream: string): boolean => stream.startsWith('_');

export interface Relay {
  /** Resolves once every event up to `position` is on the bus. */
  waitFor(position: bigint, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The relay's checkpoint, saved behind the publishing: each publish asks for its position to be
 * saved and goes on; saves run one at a time, each of the latest position asked for, so a burst of
 * events costs a save or two instead of a write transaction each. The checkpoint never passes an
 * event that is not on the bus yet.
 */
class CheckpointWriter {
  private wanted: bigint | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly name: string,
    private readonly log: Logger,
  ) {}

  save(position: bigint): void {
    this.wanted = position;
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    while (this.wanted !== null) {
      const position = this.wanted;
      this.wanted = null;
      try {
        await this.checkpoints.save(this.name, position);
      } catch (err) {
        // The next publish asks again with a later position; until then a restart re-publishes a little more.
        this.log.warn({ err, relay: this.name }, 'could not save the relay checkpoint');
      }
    }
    this.running = null;
  }

  /** Resolves once the latest position asked for is saved (or its save failed and was logged). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }
}

export interface RelayOptions {
  context: string;
  eventStore: EventStore;
  checkpoints: CheckpointStore;
  bus: Bus;
  log: Logger;
  /** Sees every event once it is on the bus (read-your-writes bookkeeping). */
  onPublished?: (event: RecordedEvent) => void;
  /**
   * Replicas over shared stores: only the replica that leads publishes (from the shared checkpoint,
   * so a takeover resumes where the last holder stopped); the others' `waitFor` follows that checkpoint.
   */
  leadership?: Leadership;
}

/**
 * Publishes a service's own events, in order, to `evt.<context>.<EventType>` (docs/architecture.md).
 * The checkpoint follows the publishing (CheckpointWriter); a crash re-publishes what was published
 * after its last save, which the bus drops as duplicates (message id = event id) and consumers,
 * idempotent, would shrug off anyway.
 */
export function startRelay(options: RelayOptions): Relay {
  return new EventRelay(options);
}

class EventRelay implements Relay {
  private readonly name: string;
  private readonly checkpoint: CheckpointWriter;
  private published = 0n;
  private stop = new AbortController();
  private subscription: ReturnType<EventStore['subscribeToAll']> | null = null;
  private loop: Promise<void> = Promise.resolve();
  /** Whether this replica publishes (it leads, or has no lease to share). */
  private publishing = false;
  private readonly waiters = new PositionWaiters();
  private readonly unwatch: () => void;
  /**
   * A bus that keeps nothing across restarts (the embedded one) gets the whole log again at start:
   * consumers that missed events before a crash, or a context added to an existing data dir, catch
   * up. Re-published ids are dropped by the bus within one process, so later resumes use the checkpoint.
   */
  private replayed: boolean;
  /** A replica that does not lead: requests wait on the leader's checkpoint. */
  private readonly following: FollowLoop;
  private readonly role: Promise<Closeable | null> | null;

  constructor(private readonly options: RelayOptions) {
    const { context, eventStore, checkpoints, log, leadership } = options;
    this.name = `relay-${context}`;
    this.checkpoint = new CheckpointWriter(checkpoints, this.name, log);
    this.replayed = options.bus.retainsEvents;
    this.unwatch = watchFollower({
      context,
      kind: 'relay',
      name: this.name,
      lag: async () => (this.publishing ? lagBehind(eventStore, this.published) : null),
    });
    this.following = new FollowLoop(
      async () => {
        if (this.publishing || this.waiters.size === 0) return false;
        this.reached(await checkpoints.load(this.name));
        return !this.publishing && this.waiters.size > 0;
      },
      (err) => log.warn({ err, relay: this.name }, 'could not read the relay checkpoint; trying again'),
    );
    this.role = leadership ? this.lead(leadership) : null;
    if (!leadership) this.start();
  }

  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    if (this.published >= position) return Promise.resolve();
    const waiting = this.waiters.wait(
      position,
      timeoutMs,
      () => new Error(`relay ${this.name} did not reach ${position} within ${timeoutMs} ms`),
    );
    if (!this.publishing) this.following.kick();
    return waiting;
  }

  async close(): Promise<void> {
    this.unwatch();
    await (await this.role)?.close();
    this.publishing = false;
    await this.halt();
  }

  private reached(position: bigint): void {
    if (position > this.published) this.published = position;
    this.waiters.reached(this.published);
  }

  private start(): void {
    this.publishing = true;
    this.stop = new AbortController();
    this.loop = this.run(this.stop.signal);
  }

  private async halt(): Promise<void> {
    this.stop.abort();
    await this.subscription?.close();
    await this.loop;
    // A successor (a restart, another replica) resumes from what this one published.
    await this.checkpoint.flush();
  }

  /** Publishes while this replica holds the lease; hands the waiting requests to the follower loop when it goes. */
  private lead(leadership: Leadership): Promise<Closeable | null> {
    return leadership
      .whileLeading(`relay ${this.options.context}`, () => {
        this.start();
        return {
          close: async () => {
            this.publishing = false;
            await this.halt();
            this.following.kick();
          },
        };
      })
      .catch((err: unknown) => {
        this.options.log.error({ err, relay: this.name }, 'relay could not start');
        return null;
      });
  }

  /** The log from what is on the bus on, published in order; an interruption resumes from the checkpoint after a backoff. */
  private async run(signal: AbortSignal): Promise<void> {
    const { eventStore, checkpoints, log } = this.options;
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        // After an interruption, from what is on the bus: the saves still under way first.
        await this.checkpoint.flush();
        const from = this.replayed ? await checkpoints.load(this.name) : 0n;
        this.replayed = true;
        if (signal.aborted) return;
        this.published = from;
        this.subscription = eventStore.subscribeToAll({ after: from });
        for await (const event of this.subscription) {
          if (this.givenUp(signal)) return;
          await this.publish(event);
          attempt = 0;
        }
      } catch (err) {
        if (signal.aborted) return;
        log.warn({ err, relay: this.name }, 'relay interrupted; resuming from its checkpoint');
        await sleep(backoff(attempt, 100, 5_000), signal);
      }
    }
  }

  /** Stopped, or a holder that lost the lease: it publishes nothing more (the event in hand is the new holder's). */
  private givenUp(signal: AbortSignal): boolean {
    const leadership = this.options.leadership;
    return signal.aborted || (leadership !== undefined && !leadership.leading);
  }

  /**
   * One event on the bus (a private stream's passed over), then its checkpoint asked for. Twice on the
   * bus (a takeover re-sends the event the last holder published but had not checkpointed) is
   * tolerated: the bus drops a repeated id, and consumers are idempotent.
   */
  private async publish(event: RecordedEvent): Promise<void> {
    const { context, bus, onPublished } = this.options;
    if (!isPrivateStream(event.stream)) await bus.publish(`evt.${context}.${event.type}`, toEnvelope(context, event));
    this.checkpoint.save(event.position);
    onPublished?.(event);
    this.reached(event.position);
  }
}
