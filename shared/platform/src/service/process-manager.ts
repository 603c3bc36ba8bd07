import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { backoff, Mutex, sleep } from '../internal/async.ts';
import { ProjectionTimeoutError } from '../projection-runner.ts';
import { leadershipOf, type Leadership } from './context-lease.ts';
import { FollowLoop, followerReached } from './lease-follower.ts';
import { contextOfStore } from '../observability/instrument.ts';
import { lagBehind, watchFollower } from '../observability/metrics.ts';
import { inSpan, withCorrelation } from '../observability/tracing.ts';

/**
 * A process manager (the house style): reacts to events of its own context's log by sending commands to
 * other streams, one event at a time. Its checkpoint is saved only after the event's commands are
 * appended, so a crash between them re-handles the event on restart: `handle` must be idempotent
 * (deciders that answer a repeated command with no events, or keyed appends). At-least-once
 * delivery and idempotent steps give each workflow step exactly one effect.
 */
export interface ProcessManagerOptions {
  /** Checkpoint name in the read store. */
  name: string;
  eventStore: EventStore;
  readStore: ReadStore;
  /** Only these event types reach `handle` (the others only move the checkpoint). */
  eventTypes: readonly string[];
  /** Sends the commands one event calls for; throwing retries the same event after a backoff. */
  handle(event: RecordedEvent): Promise<void>;
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  onError?: (error: unknown, event: RecordedEvent | undefined) => void;
  /**
   * Replicas over shared stores: events are handled only while this replica leads (see
   * `ProjectionOptions.leadership`); default: the leadership attached to `readStore`.
   */
  leadership?: Leadership | null;
}

export interface ProcessManager {
  readonly name: string;
  /** Last global position handled or skipped (-1n until the checkpoint is read). */
  readonly position: bigint;
  /** Resolves once every event up to `position` is handled: a request waits for the workflow it started. */
  waitFor(position: bigint, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function runProcessManager(options: ProcessManagerOptions): ProcessManager {
  const types = new Set(options.eventTypes);
  const { eventStore, readStore, name } = options;
  const leadership = options.leadership === undefined ? leadershipOf(readStore) : options.leadership;
  const waiters = new Set<{ position: bigint; resolve: () => void }>();
  const lifecycle = new Mutex();
  let stop = new AbortController();
  let processed = -1n;
  let subscription: Subscription | undefined;
  let running: Promise<void> = Promise.resolve();
  let applying = false;
  let closed = false;

  const unwatch = watchFollower({
    context: contextOfStore(eventStore),
    kind: 'process_manager',
    name,
    lag: async () => (applying ? lagBehind(eventStore, processed) : null),
  });

  const advance = (position: bigint) => {
    if (position <= processed) return;
    processed = position;
    for (const w of waiters) if (w.position <= position) waiters.delete(w), w.resolve();
  };

  const run = async (signal: AbortSignal) => {
    let attempt = 0;
    while (!signal.aborted) {
      let current: RecordedEvent | undefined;
      try {
        const checkpoint = await readStore.loadCheckpoint(name);
        if (signal.aborted) break;
        advance(checkpoint);
        subscription = eventStore.subscribeToAll({ after: checkpoint });
        for await (const event of subscription) {
          current = event;
          if (types.has(event.type)) {
            // A holder that lost the lease takes no further step (its successor resumes from the checkpoint).
            if (leadership && !leadership.leading) return;
            // In the trace of the work that appended the event, its correlation id on the log lines.
            await withCorrelation(event.metadata.correlation_id, () =>
              inSpan(
                `process ${name}`,
                { traceparent: event.metadata.traceparent, attributes: { 'renopath.event_type': event.type } },
                () => options.handle(event),
              ),
            );
            // After the effects, never before: a crash in between replays the event, not skips it.
            await readStore.transaction(async (tx) => {
              // Replicas: a holder that lost the lease must not move the checkpoint under its successor.
              if (leadership) await leadership.fence(tx);
              await tx.saveCheckpoint(name, event.position);
            });
          }
          advance(event.position);
          current = undefined;
          attempt = 0;
        }
      } catch (error) {
        await subscription?.close();
        if (signal.aborted) break;
        options.onError?.(error, current);
        const { initialDelayMs = 100, maxDelayMs = 10_000 } = options.retry ?? {};
        await sleep(backoff(attempt, initialDelayMs, maxDelayMs), signal);
        attempt += 1;
      }
    }
  };

  const halt = async () => {
    stop.abort();
    await subscription?.close();
    await running;
  };

  // A replica that does not lead: requests wait on the leader's checkpoint.
  const following = new FollowLoop(
    async () => {
      if (applying || closed || waiters.size === 0) return false;
      let target = 0n;
      for (const w of waiters) if (w.position > target) target = w.position;
      const checkpoint = await readStore.loadCheckpoint(name);
      // What an earlier look already found reached is not scanned again.
      advance(await followerReached(eventStore, checkpoint > processed ? checkpoint : processed, target, (event) => types.has(event.type)));
      return !applying && !closed && waiters.size > 0;
    },
    (error) => options.onError?.(error, undefined),
  );

  const start = () => {
    applying = true;
    stop = new AbortController();
    running = run(stop.signal);
  };
  const role = leadership
    ? leadership
        .whileLeading(`process manager ${name}`, () =>
          lifecycle.run(async () => {
            if (!closed && !applying) start();
            return {
              close: () => {
                applying = false;
                stop.abort();
                return lifecycle.run(async () => {
                  if (!applying) await halt();
                  following.kick();
                });
              },
            };
          }),
        )
        .catch((error: unknown) => {
          options.onError?.(error, undefined);
          return null;
        })
    : null;
  if (!leadership) start();

  return {
    name,
    get position() {
      return processed;
    },
    waitFor(position, timeoutMs) {
      if (processed >= position) return Promise.resolve();
      return new Promise((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const waiter = { position, resolve: () => (clearTimeout(timer), resolve()) };
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            waiters.delete(waiter);
            reject(new ProjectionTimeoutError(name, position, processed));
          }, timeoutMs);
        }
        waiters.add(waiter);
        if (!applying) following.kick();
      });
    },
    async close() {
      unwatch();
      await (await role)?.close();
      await lifecycle.run(async () => {
        closed = true;
        applying = false;
        await halt();
        waiters.clear();
      });
    },
  };
}
