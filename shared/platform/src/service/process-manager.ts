import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import type { Closeable } from '../ports/bus.ts';
import { backoff, Mutex, sleep } from '../internal/async.ts';
import { ProjectionTimeoutError } from '../projection-runner.ts';
import { leadershipOf, type Leadership } from './context-lease.ts';
import { FollowLoop, followerReached, PositionWaiters } from './lease-follower.ts';
import { contextOfStore } from '../observability/instrument.ts';
import { lagBehind, watchFollower } from '../observability/metrics.ts';
import { inSpan } from '../observability/tracing.ts';

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
  return new ProcessManagerLoop(options);
}

class ProcessManagerLoop implements ProcessManager {
  readonly name: string;
  private readonly types: Set<string>;
  private readonly leadership: Leadership | null;
  private readonly waiters = new PositionWaiters();
  private readonly lifecycle = new Mutex();
  private stop = new AbortController();
  private processed = -1n;
  private subscription: Subscription | undefined;
  private running: Promise<void> = Promise.resolve();
  /** Whether this replica handles events (it leads, or has no lease to share). */
  private applying = false;
  private closed = false;
  private readonly unwatch: () => void;
  /** A replica that does not lead: requests wait on the leader's checkpoint. */
  private readonly following: FollowLoop;
  private readonly role: Promise<Closeable | null> | null;

  constructor(private readonly options: ProcessManagerOptions) {
    const { eventStore, readStore, name } = options;
    this.name = name;
    this.types = new Set(options.eventTypes);
    this.leadership = options.leadership === undefined ? leadershipOf(readStore) : options.leadership;
    this.unwatch = watchFollower({
      context: contextOfStore(eventStore),
      kind: 'process_manager',
      name,
      lag: async () => (this.applying ? lagBehind(eventStore, this.processed) : null),
    });
    this.following = new FollowLoop(
      () => this.follow(),
      (error) => options.onError?.(error, undefined),
    );
    this.role = this.leadership ? this.lead(this.leadership) : null;
    if (!this.leadership) this.start();
  }

  get position(): bigint {
    return this.processed;
  }

  waitFor(position: bigint, timeoutMs?: number): Promise<void> {
    if (this.processed >= position) return Promise.resolve();
    const waiting = this.waiters.wait(position, timeoutMs, () => new ProjectionTimeoutError(this.name, position, this.processed));
    if (!this.applying) this.following.kick();
    return waiting;
  }

  async close(): Promise<void> {
    this.unwatch();
    await (await this.role)?.close();
    await this.lifecycle.run(async () => {
      this.closed = true;
      this.applying = false;
      await this.halt();
      this.waiters.clear();
    });
  }

  private advance(position: bigint): void {
    if (position <= this.processed) return;
    this.processed = position;
    this.waiters.reached(position);
  }

  private start(): void {
    this.applying = true;
    this.stop = new AbortController();
    this.running = this.run(this.stop.signal);
  }

  private async halt(): Promise<void> {
    this.stop.abort();
    await this.subscription?.close();
    await this.running;
  }

  /** Handles events while this replica holds the lease; gives the handling up (to the follower loop) when it goes. */
  private lead(leadership: Leadership): Promise<Closeable | null> {
    return leadership
      .whileLeading(`process manager ${this.name}`, () =>
        this.lifecycle.run(async () => {
          if (!this.closed && !this.applying) this.start();
          return {
            close: () => {
              this.applying = false;
              this.stop.abort();
              return this.lifecycle.run(async () => {
                if (!this.applying) await this.halt();
                this.following.kick();
              });
            },
          };
        }),
      )
      .catch((error: unknown) => {
        this.options.onError?.(error, undefined);
        return null;
      });
  }

  /** The log from the checkpoint on, event by event; an error retries from the checkpoint after a backoff. */
  private async run(signal: AbortSignal): Promise<void> {
    const { eventStore, readStore, name } = this.options;
    let attempt = 0;
    while (!signal.aborted) {
      let current: RecordedEvent | undefined;
      try {
        const checkpoint = await readStore.loadCheckpoint(name);
        if (signal.aborted) break;
        this.advance(checkpoint);
        this.subscription = eventStore.subscribeToAll({ after: checkpoint });
        for await (const event of this.subscription) {
          current = event;
          // A holder that lost the lease takes no further step (its successor resumes from the checkpoint).
          if (this.types.has(event.type) && !(await this.handle(event))) return;
          this.advance(event.position);
          current = undefined;
          attempt = 0;
        }
      } catch (error) {
        await this.subscription?.close();
        if (signal.aborted) break;
        this.options.onError?.(error, current);
        const { initialDelayMs = 100, maxDelayMs = 10_000 } = this.options.retry ?? {};
        await sleep(backoff(attempt, initialDelayMs, maxDelayMs), signal);
        attempt += 1;
      }
    }
  }

  /** One event's commands, then its checkpoint; false (nothing done) when this replica no longer leads. */
  private async handle(event: RecordedEvent): Promise<boolean> {
    const { leadership, name } = this;
    if (leadership && !leadership.leading) return false;
    // In the trace of the work that appended the event (a span when spans are recorded; its commands take the event's metadata on: `reactionMetadata`).
    await inSpan(`process ${name}`, { traceparent: event.metadata.traceparent, attributes: { 'renopath.event_type': event.type } }, () =>
      this.options.handle(event),
    );
    // After the effects, never before: a crash in between replays the event, not skips it.
    await this.options.readStore.transaction(async (tx) => {
      // Replicas: a holder that lost the lease must not move the checkpoint under its successor.
      if (leadership) await leadership.fence(tx);
      await tx.saveCheckpoint(name, event.position);
    });
    return true;
  }

  /** One look, on a replica that does not lead, at how far the leader has handled; whether to look again. */
  private async follow(): Promise<boolean> {
    if (this.applying || this.closed || this.waiters.size === 0) return false;
    const { eventStore, readStore, name } = this.options;
    const target = this.waiters.furthest();
    const checkpoint = await readStore.loadCheckpoint(name);
    // What an earlier look already found reached is not scanned again.
    const from = checkpoint > this.processed ? checkpoint : this.processed;
    this.advance(await followerReached(eventStore, from, target, (event) => this.types.has(event.type)));
    return !this.applying && !this.closed && this.waiters.size > 0;
  }
}
