import type { Logger } from 'pino';
import type { Bus, EventEnvelope } from '../ports/bus.ts';
import type { CheckpointStore, EventStore, RecordedEvent } from '../ports/event-store.ts';
import { backoff, sleep } from '../internal/async.ts';
import type { Leadership } from './context-lease.ts';
import { FollowLoop } from './lease-follower.ts';

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

export interface Relay {
  /** Resolves once every event up to `position` is on the bus. */
  waitFor(position: bigint, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Publishes a service's own events, in order, to `evt.<context>.<EventType>` (ARCHITECTURE.md).
 * The checkpoint is saved after each publish; a crash between the two re-publishes one event,
 * which the bus drops as a duplicate (message id = event id).
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
  let published = 0n;
  let stop = new AbortController();
  let subscription: ReturnType<EventStore['subscribeToAll']> | null = null;
  let loop: Promise<void> = Promise.resolve();
  let publishing = false;
  const waiters = new Set<{ position: bigint; resolve: () => void }>();
  const reached = (position: bigint) => {
    if (position > published) published = position;
    for (const w of waiters) if (w.position <= published) (waiters.delete(w), w.resolve());
  };

  // A bus that keeps nothing across restarts (the embedded one) gets the whole log again at start:
  // consumers that missed events before a crash, or a context added to an existing data dir, catch
  // up. Re-published ids are dropped by the bus within one process, so later resumes use the checkpoint.
  let replayed = bus.retainsEvents;
  const run = async (signal: AbortSignal) => {
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
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
          await bus.publish(`evt.${context}.${event.type}`, toEnvelope(context, event));
          await checkpoints.save(name, event.position);
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
    ? leadership.whileLeading(`relay ${context}`, () => {
      start();
      return {
        close: async () => {
          publishing = false;
          await halt();
          following.kick();
        },
      };
    }).catch((err: unknown) => {
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
      await (await role)?.close();
      publishing = false;
      await halt();
    },
  };
}
