import type { Logger } from 'pino';
import type { Bus, EventEnvelope } from '../ports/bus.ts';
import type { CheckpointStore, EventStore, RecordedEvent } from '../ports/event-store.ts';
import { backoff, sleep } from '../internal/async.ts';

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
}): Relay {
  const { context, eventStore, checkpoints, bus, log, onPublished } = options;
  const name = `relay-${context}`;
  let published = 0n;
  const stop = new AbortController();
  let subscription: ReturnType<EventStore['subscribeToAll']> | null = null;
  const waiters = new Set<{ position: bigint; resolve: () => void }>();

  // A bus that keeps nothing across restarts (the embedded one) gets the whole log again at start:
  // consumers that missed events before a crash, or a context added to an existing data dir, catch
  // up. Re-published ids are dropped by the bus within one process, so later resumes use the checkpoint.
  let replayed = bus.retainsEvents;
  const loop = (async () => {
    for (let attempt = 0; !stop.signal.aborted; attempt++) {
      try {
        published = replayed ? await checkpoints.load(name) : 0n;
        replayed = true;
        subscription = eventStore.subscribeToAll({ after: published });
        for await (const event of subscription) {
          await bus.publish(`evt.${context}.${event.type}`, toEnvelope(context, event));
          await checkpoints.save(name, event.position);
          published = event.position;
          onPublished?.(event);
          attempt = 0;
          for (const w of waiters) if (w.position <= published) (waiters.delete(w), w.resolve());
        }
      } catch (err) {
        if (stop.signal.aborted) return;
        log.warn({ err, relay: name }, 'relay interrupted; resuming from its checkpoint');
        await sleep(backoff(attempt, 100, 5_000), stop.signal);
      }
    }
  })();

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
      });
    },
    async close() {
      stop.abort();
      await subscription?.close();
      await loop;
    },
  };
}
