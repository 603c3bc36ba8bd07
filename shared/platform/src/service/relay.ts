import type { Logger } from 'pino';
import type { Bus, EventEnvelope } from '../ports/bus.ts';
import type { CheckpointStore, EventStore, RecordedEvent } from '../ports/event-store.ts';
import { backoff, sleep } from '../internal/async.ts';
import type { Leadership } from './context-lease.ts';
import { FollowLoop } from './lease-follower.ts';
import { lagBehind, watchFollower } from '../observability/metrics.ts';

export const toEnvelope = (context: string, e: RecordedEvent): EventEnvelope => ({
  context,
  event_id: e.event_id,
  type: e.type,
  stream: e.stream,
  revision: Number(e.revision),
  position: Number(e.position),
  occurred_at: e.occurred_at,
  data: e.data,
  metadata: e.metadata,
});

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

/**
 * Publishes a service's own events, in order, to `evt.<context>.<EventType>` (docs/architecture.md).
 * The checkpoint follows the publishing (CheckpointWriter); a crash re-publishes what was published
 * after its last save, which the bus drops as duplicates (message id = event id) and consumers,
 * idempotent, would shrug off anyway.
 */
export function startRelay(options: {
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
}): Relay {
  const { context, eventStore, checkpoints, bus, log, onPublished, leadership } = options;
  const name = `relay-${context}`;
  const checkpoint = new CheckpointWriter(checkpoints, name, log);
  let published = 0n;
  let stop = new AbortController();
  let subscription: ReturnType<EventStore['subscribeToAll']> | null = null;
  let loop: Promise<void> = Promise.resolve();
  let publishing = false;
  const waiters = new Set<{ position: bigint; resolve: () => void }>();
  const unwatch = watchFollower({ context, kind: 'relay', name, lag: async () => (publishing ? lagBehind(eventStore, published) : null) });
  const reached = (position: bigint) => {
    if (position > published) published = position;
    for (const w of waiters) if (w.position <= published) waiters.delete(w), w.resolve();
  };

  // A bus that keeps nothing across restarts (the embedded one) gets the whole log again at start:
  // consumers that missed events before a crash, or a context added to an existing data dir, catch
  // up. Re-published ids are dropped by the bus within one process, so later resumes use the checkpoint.
  let replayed = bus.retainsEvents;
  const run = async (signal: AbortSignal) => {
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        // After an interruption, from what is on the bus: the saves still under way first.
        await checkpoint.flush();
        const from = replayed ? await checkpoints.load(name) : 0n;
        replayed = true;
        if (signal.aborted) return;
        published = from;
        subscription = eventStore.subscribeToAll({ after: from });
        for await (const event of subscription) {
          // A holder that lost the lease publishes nothing more (the event in hand is the new holder's).
          if (signal.aborted || (leadership && !leadership.leading)) return;
          // Twice on the bus (a takeover re-sends the event the last holder published but had not
          // checkpointed) is tolerated: the bus drops a repeated id, and consumers are idempotent.
          if (!isPrivateStream(event.stream)) await bus.publish(`evt.${context}.${event.type}`, toEnvelope(context, event));
          checkpoint.save(event.position);
          onPublished?.(event);
          reached(event.position);
          attempt = 0;
        }
      } catch (err) {
        if (signal.aborted) return;
        log.warn({ err, relay: name }, 'relay interrupted; resuming from its checkpoint');
        await sleep(backoff(attempt, 100, 5_000), signal);
      }
    }
  };
  const halt = async () => {
    stop.abort();
    await subscription?.close();
    await loop;
    // A successor (a restart, another replica) resumes from what this one published.
    await checkpoint.flush();
  };
  const start = () => {
    publishing = true;
    stop = new AbortController();
    loop = run(stop.signal);
  };

  const following = new FollowLoop(
    async () => {
      if (publishing || waiters.size === 0) return false;
      reached(await checkpoints.load(name));
      return !publishing && waiters.size > 0;
    },
    (err) => log.warn({ err, relay: name }, 'could not read the relay checkpoint; trying again'),
  );
  const role = leadership
    ? leadership
        .whileLeading(`relay ${context}`, () => {
          start();
          return {
            close: async () => {
              publishing = false;
              await halt();
              following.kick();
            },
          };
        })
        .catch((err: unknown) => {
          log.error({ err, relay: name }, 'relay could not start');
          return null;
        })
    : null;
  if (!leadership) start();

  return {
    waitFor(position, timeoutMs) {
      if (published >= position) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = { position, resolve: () => (clearTimeout(timer), resolve()) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`relay ${name} did not reach ${position} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
        if (!publishing) following.kick();
      });
    },
    async close() {
      unwatch();
      await (await role)?.close();
      publishing = false;
      await halt();
    },
  };
}
