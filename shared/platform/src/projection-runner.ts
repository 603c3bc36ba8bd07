import type { EventStore, RecordedEvent, Subscription } from './ports/event-store.ts';
import type { ReadStore, ReadStoreTx } from './ports/read-store.ts';
import type { Closeable } from './ports/bus.ts';
import { backoff, Mutex, sleep } from './internal/async.ts';
import { leadershipOf, type Leadership } from './service/context-lease.ts';
import { FollowLoop, followerReached } from './service/lease-follower.ts';
import { contextOfStore } from './observability/instrument.ts';
import { lagBehind, watchFollower } from './observability/metrics.ts';
import { inSpan } from './observability/tracing.ts';

export interface ProjectionOptions {
  /** Checkpoint name in the read store. */
  name: string;
  eventStore: EventStore;
  readStore: ReadStore;
  /** Collections this projection owns: `rebuild()` empties them. */
  collections: string[];
  /** Applies one event; runs inside the read-store transaction that also saves the checkpoint. */
  handle(event: RecordedEvent, tx: ReadStoreTx): Promise<void>;
  /** Only events of streams with one of these prefixes reach `handle` (default: every event). */
  streamPrefixes?: string[];
  /** Backoff after a failure, before resuming from the checkpoint (ms). */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Sees every failure (the runner retries it); `event` is the one being applied, if any. */
  onError?: (error: unknown, event: RecordedEvent | undefined) => void;
  /**
   * Replicas over shared stores: events are applied only while this replica leads, and `waitFor`
   * follows the leader's checkpoint otherwise. Default: the leadership the context runtime attached
   * to `readStore`; none (`null`, or a store no runtime opened): this runner always applies.
   */
  leadership?: Leadership | null;
}

/**
 * What a projection is, apart from the stores it runs on: a context's service and `renopath replay`
 * share one definition (each context's `projections.ts`).
 */
export type ProjectionDefinition = Pick<ProjectionOptions, 'name' | 'collections' | 'streamPrefixes' | 'handle'>;

export interface Projection {
  readonly name: string;
  /** Last global position this runner has applied or skipped (-1n until it has read its checkpoint). */
  readonly position: bigint;
  /** Resolves once every event up to `position` is applied: read-your-writes for the caller. */
  waitFor(position: bigint, timeoutMs?: number): Promise<void>;
  /** Empties the projection's collections and checkpoint, replays the log, resolves when caught up. */
  rebuild(): Promise<void>;
  close(): Promise<void>;
}

export class ProjectionTimeoutError extends Error {
  constructor(
    readonly projection: string,
    readonly wanted: bigint,
    readonly reached: bigint,
  ) {
    super(`projection ${projection} did not reach position ${wanted} in time (at ${reached})`);
    this.name = 'ProjectionTimeoutError';
  }
}

interface Waiter {
  position: bigint;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The most events one read-model transaction applies. */
const BATCH = 500;

class ProjectionRunner implements Projection {
  readonly name: string;
  private processed = -1n;
  private readonly waiters = new Set<Waiter>();
  private readonly lifecycle = new Mutex();
  private stop = new AbortController();
  private subscription: Subscription | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;
  /** Whether this runner applies events now (it leads, or there is no leadership to ask). */
  private applying = false;
  private readonly leadership: Leadership | null;
  private readonly role: Promise<Closeable | null> | null = null;
  private readonly following: FollowLoop;
  private readonly unwatch: () => void;

  constructor(private readonly options: ProjectionOptions) {
    this.name = options.name;
    // Only the replica that applies knows its lag; the others follow its checkpoint and report none.
    this.unwatch = watchFollower({
      context: contextOfStore(options.eventStore),
      kind: 'projection',
      name: options.name,
      lag: async () => (this.applying ? lagBehind(options.eventStore, this.processed) : null),
    });
    this.leadership = options.leadership === undefined ? leadershipOf(options.readStore) : options.leadership;
    this.following = new FollowLoop(
      () => this.followStep(),
      (error) => this.options.onError?.(error, undefined),
    );
    if (this.leadership) {
      this.role = this.leadership
        .whileLeading(`projection ${this.name}`, () => this.lead())
        .catch((error: unknown) => {
          this.options.onError?.(error, undefined);
          return null;
        });
    } else {
      this.applying = true;
      this.running = this.run(this.stop.signal);
    }
  }

  /** This replica took the lease: apply from the shared checkpoint until told to stop. */
  private lead(): Promise<Closeable> {
    return this.lifecycle.run(async () => {
      if (!this.closed && !this.applying) {
        this.applying = true;
        this.stop = new AbortController();
        this.running = this.run(this.stop.signal);
      }
      return { close: () => this.follow() };
    });
  }

  /** The lease is gone: stop applying at once; waiting requests now follow the new leader's checkpoint. */
  private follow(): Promise<void> {
    this.applying = false;
    this.stop.abort();
    return this.lifecycle.run(async () => {
      if (!this.applying) await this.halt();
      this.following.kick();
    });
  }

  private async followStep(): Promise<boolean> {
    if (this.applying || this.closed || this.waiters.size === 0) return false;
    let target = 0n;
    for (const waiter of this.waiters) if (waiter.position > target) target = waiter.position;
    const checkpoint = await this.options.readStore.loadCheckpoint(this.name);
    // What an earlier look already found reached is not scanned again.
    const known = checkpoint > this.processed ? checkpoint : this.processed;
    this.advance(await followerReached(this.options.eventStore, known, target, (event) => this.wanted(event)));
    return !this.applying && !this.closed && this.waiters.size > 0;
  }

  get position(): bigint {
    return this.processed;
  }

  /** Subscribes from the checkpoint and applies events in order, a backlog in batches; on failure, backs off and resumes. */
  private async run(stop: AbortSignal): Promise<void> {
    const { eventStore, readStore, name, handle } = this.options;
    let attempt = 0;
    while (!stop.aborted) {
      let current: RecordedEvent | undefined;
      try {
        const checkpoint = await readStore.loadCheckpoint(name);
        if (stop.aborted) break;
        this.advance(checkpoint);
        const subscription = eventStore.subscribeToAll({ after: checkpoint });
        this.subscription = subscription;
        for await (const first of subscription) {
          // A backlog (a rebuild, a burst of writes) is applied in batches: one transaction, one
          // commit and one checkpoint for the events already read, instead of one per event.
          const batch = [first, ...(subscription.takeBuffered?.(BATCH - 1) ?? [])];
          current = first;
          const wanted = batch.filter((e) => this.wanted(e));
          if (wanted.length > 0) {
            // One span per batch, in the trace of the batch's first event.
            await inSpan(
              `projection ${name}`,
              {
                traceparent: wanted[0]!.metadata.traceparent,
                attributes: { 'renopath.events': String(wanted.length) },
              },
              () =>
                readStore.transaction(async (tx) => {
                  // Replicas: a batch commits only under the current lease holder, never twice.
                  if (this.leadership) await this.leadership.fence(tx);
                  for (const event of wanted) {
                    current = event;
                    await handle(event, tx);
                  }
                  await tx.saveCheckpoint(name, batch[batch.length - 1]!.position);
                }),
            );
          }
          this.advance(batch[batch.length - 1]!.position);
          current = undefined;
          attempt = 0;
        }
      } catch (error) {
        await this.subscription?.close();
        if (stop.aborted) break;
        this.options.onError?.(error, current);
        const { initialDelayMs = 100, maxDelayMs = 10_000 } = this.options.retry ?? {};
        await sleep(backoff(attempt, initialDelayMs, maxDelayMs), stop);
        attempt += 1;
      }
    }
  }

  private wanted(event: RecordedEvent): boolean {
    const prefixes = this.options.streamPrefixes;
    return !prefixes || prefixes.some((prefix) => event.stream.startsWith(prefix));
  }

  private advance(position: bigint): void {
    if (position <= this.processed) return;
    this.processed = position;
    for (const waiter of this.waiters) {
      if (waiter.position <= position) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  waitFor(position: bigint, timeoutMs?: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`projection ${this.name} is closed`));
    if (this.processed >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new ProjectionTimeoutError(this.name, position, this.processed));
        }, timeoutMs);
      }
      this.waiters.add(waiter);
      if (!this.applying) this.following.kick();
    });
  }

  async rebuild(): Promise<void> {
    const head = await this.lifecycle.run(async () => {
      if (this.closed) throw new Error(`projection ${this.name} is closed`);
      const head = await this.options.eventStore.headPosition();
      // Another replica leads: the rebuild is its to make (emptying the views under it would corrupt
      // them); this one waits until the leader has applied the log as it stands.
      if (this.leadership && !this.leadership.leading) return head;
      await this.halt();
      await this.options.readStore.reset(this.name, this.options.collections);
      this.processed = -1n;
      this.stop = new AbortController();
      // A leader whose part has not started yet starts from the emptied checkpoint when it does.
      if (this.applying) this.running = this.run(this.stop.signal);
      return head;
    });
    await this.waitFor(head);
  }

  async close(): Promise<void> {
    // Outside the lifecycle lock: stopping the part takes that lock.
    await (await this.role)?.close();
    this.unwatch();
    await this.lifecycle.run(async () => {
      if (this.closed) return;
      this.closed = true;
      await this.halt();
      for (const waiter of this.waiters) waiter.reject(new Error(`projection ${this.name} is closed`));
      this.waiters.clear();
    });
  }

  /** Stops the loop after the event in hand is committed. */
  private async halt(): Promise<void> {
    this.stop.abort();
    await this.subscription?.close();
    await this.running;
    this.subscription = undefined;
  }
}

/** Keeps a read model up to date with the event log, exactly once per event thanks to the checkpoint. */
export function runProjection(options: ProjectionOptions): Projection {
  return new ProjectionRunner(options);
}
