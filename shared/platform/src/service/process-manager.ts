import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { backoff, sleep } from '../internal/async.ts';
import { ProjectionTimeoutError } from '../projection-runner.ts';

/**
 * A process manager (STYLE.md): reacts to events of its own context's log by sending commands to
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
  const stop = new AbortController();
  const waiters = new Set<{ position: bigint; resolve: () => void }>();
  let processed = -1n;
  let subscription: Subscription | undefined;

  const advance = (position: bigint) => {
    if (position <= processed) return;
    processed = position;
    for (const w of waiters) if (w.position <= position) (waiters.delete(w), w.resolve());
  };

  const running = (async () => {
    const { eventStore, readStore, name } = options;
    let attempt = 0;
    while (!stop.signal.aborted) {
      let current: RecordedEvent | undefined;
      try {
        const checkpoint = await readStore.loadCheckpoint(name);
        if (stop.signal.aborted) break;
        advance(checkpoint);
        subscription = eventStore.subscribeToAll({ after: checkpoint });
        for await (const event of subscription) {
          current = event;
          if (types.has(event.type)) {
            await options.handle(event);
            // After the effects, never before: a crash in between replays the event, not skips it.
            await readStore.transaction((tx) => tx.saveCheckpoint(name, event.position));
          }
          advance(event.position);
          current = undefined;
          attempt = 0;
        }
      } catch (error) {
        await subscription?.close();
        if (stop.signal.aborted) break;
        options.onError?.(error, current);
        const { initialDelayMs = 100, maxDelayMs = 10_000 } = options.retry ?? {};
        await sleep(backoff(attempt, initialDelayMs, maxDelayMs), stop.signal);
        attempt += 1;
      }
    }
  })();

  return {
    name: options.name,
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
            reject(new ProjectionTimeoutError(options.name, position, processed));
          }, timeoutMs);
        }
        waiters.add(waiter);
      });
    },
    async close() {
      stop.abort();
      await subscription?.close();
      await running;
      waiters.clear();
    },
  };
}
