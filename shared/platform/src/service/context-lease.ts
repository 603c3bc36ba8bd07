import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Bus, Closeable } from '../ports/bus.ts';
import type { Lease, LeaseStore } from '../ports/lease.ts';
import type { ReadStore, ReadStoreTx } from '../ports/read-store.ts';
import { sleep } from '../internal/async.ts';
import { wrapBus } from '../internal/wrap-bus.ts';

/**
 * Which replica of a context runs its background work. Replicas over shared stores compete for
 * one lease per context; the holder runs the relay, projections, process managers, reactors and
 * settle responder (`whileLeading` parts), the others serve commands and queries only and take over
 * when the holder goes. With stores of its own (SQLite), a process is always the holder.
 */
export interface Leadership {
  /** True while this replica holds the context's lease. */
  readonly leading: boolean;
  /** False when the lease is this process's own (no other replica can share the stores). */
  readonly shared: boolean;
  /**
   * Runs `start` now if this replica leads, and again each time it takes the lease over; closes
   * what it returned when the lease is lost or given up. Resolves once a leading replica started it;
   * the returned handle stops it for good.
   */
  whileLeading(part: string, start: () => Promise<Closeable> | Closeable): Promise<Closeable>;
  /**
   * Call inside a read-store transaction that commits leader work (a projection's batch, a
   * checkpoint): throws LeaseLostError, rolling it back, unless this replica is still the latest
   * holder. A holder that lost the lease without knowing it yet cannot commit behind its successor.
   */
  fence(tx: ReadStoreTx): Promise<void>;
  /** Stops every part, gives the lease up (another replica takes it over) and stops competing. */
  close(): Promise<void>;
}

export interface LeadershipOptions {
  leases: LeaseStore;
  /** The lease's name: one per context on a shared server. */
  name: string;
  /** Whether other processes can share the stores (see `Leadership.shared`). */
  shared: boolean;
  /** How often a replica that does not lead tries to take the lease (RENOPATH_LEASE_RETRY_MS). */
  retryMs: number;
  log: Logger;
  /**
   * The shared read store the leader's work commits to: each new holder records itself there
   * before it starts, and `fence` checks that record (none: `fence` checks only `leading`).
   */
  fenceStore?: ReadStore;
}

/** The read-store collection the fence record lives in, one document per lease. */
export const FENCE_COLLECTION = 'renopath_lease_holders';

export class LeaseLostError extends Error {
  constructor(lease: string, reason: string) {
    super(`lease ${lease}: ${reason}`);
    this.name = 'LeaseLostError';
  }
}

interface Part {
  name: string;
  start: () => Promise<Closeable> | Closeable;
  running: Closeable | null;
  removed: boolean;
}

class LeaseLeadership implements Leadership {
  private lease: Lease | null = null;
  /** This holding's fence token (a new one per takeover). */
  private token: string | null = null;
  private readonly parts: Part[] = [];
  /** Starts and stops of parts, one after another: a part is never started twice or stopped while starting. */
  private transitions: Promise<void> = Promise.resolve();
  private readonly stop = new AbortController();
  private competing: Promise<void> = Promise.resolve();

  constructor(private readonly options: LeadershipOptions) {}

  get leading(): boolean {
    return this.lease?.held ?? false;
  }

  get shared(): boolean {
    return this.options.shared;
  }

  /** One try at once (so a lone replica leads before its parts register), then the retry loop. */
  async begin(): Promise<void> {
    await this.tryTake();
    this.competing = this.compete();
  }

  private async compete(): Promise<void> {
    while (!this.stop.signal.aborted) {
      const lease = this.lease;
      if (lease?.held) {
        await new Promise<void>((resolve) => {
          const done = () => resolve();
          lease.lost.addEventListener('abort', done, { once: true });
          this.stop.signal.addEventListener('abort', done, { once: true });
        });
        continue;
      }
      await sleep(this.options.retryMs, this.stop.signal);
      if (!this.stop.signal.aborted) await this.tryTake();
    }
  }

  private async tryTake(): Promise<void> {
    let lease: Lease | null = null;
    try {
      lease = await this.options.leases.tryAcquire(this.options.name);
    } catch (err) {
      this.options.log.warn({ err, lease: this.options.name }, 'could not try the lease; trying again');
      return;
    }
    if (!lease) return;
    if (this.stop.signal.aborted) return void (await lease.release());
    const token = randomUUID();
    if (this.options.fenceStore) {
      try {
        // Serialised after any commit the last holder still had under way, and before ours.
        await this.options.fenceStore.transaction((tx) =>
          tx.put(FENCE_COLLECTION, this.options.name, { token, since: new Date().toISOString() }),
        );
      } catch (err) {
        this.options.log.warn({ err, lease: this.options.name }, 'took the lease but could not record it; giving it up');
        await lease.release().catch(() => undefined);
        return;
      }
    }
    this.token = token;
    this.lease = lease;
    this.options.log.info({ lease: this.options.name }, 'holding the lease: running the background work');
    // Stop at once when it goes: a holder that lost its connection must not go on working.
    lease.lost.addEventListener(
      'abort',
      () => {
        if (!this.stop.signal.aborted)
          this.options.log.warn(
            { lease: this.options.name, reason: String(lease.lost.reason) },
            'lease lost: stopping the background work',
          );
        void this.transition(() => this.stopAll(lease));
      },
      { once: true },
    );
    await this.transition(async () => {
      if (lease.held) for (const part of this.parts) await this.startPart(part, lease);
    });
  }

  private transition(step: () => Promise<void>): Promise<void> {
    const next = this.transitions.then(step, step);
    this.transitions = next.catch(() => undefined);
    return next;
  }

  /** With `rethrow` (a part registering at start-up), a failure is the caller's, as it was before leases. */
  private async startPart(part: Part, lease: Lease, rethrow = false): Promise<void> {
    if (part.removed || part.running || !lease.held) return;
    try {
      part.running = await part.start();
    } catch (err) {
      if (rethrow) throw err;
      // A part that cannot start on a takeover gives the lease up, so a healthier replica can take over.
      this.options.log.error({ err, part: part.name }, 'a background part failed to start: giving the lease up');
      void lease.release();
      return;
    }
    if (!lease.held) await this.stopPart(part);
  }

  private async stopPart(part: Part): Promise<void> {
    const running = part.running;
    part.running = null;
    try {
      await running?.close();
    } catch (err) {
      this.options.log.warn({ err, part: part.name }, 'a background part failed to stop');
    }
  }

  /** All at once, not one after another: a part that takes long to finish must not keep the others working. */
  private async stopAll(lease: Lease): Promise<void> {
    if (this.lease === lease) this.lease = null;
    await Promise.all(this.parts.map((part) => this.stopPart(part)));
  }

  async fence(tx: ReadStoreTx): Promise<void> {
    const token = this.token;
    if (!this.leading || token === null) throw new LeaseLostError(this.options.name, 'this replica does not hold it');
    if (!this.options.fenceStore) return;
    const record = await tx.get<{ token: string }>(FENCE_COLLECTION, this.options.name);
    if (record?.token !== token) throw new LeaseLostError(this.options.name, 'another replica took it over');
  }

  async whileLeading(name: string, start: () => Promise<Closeable> | Closeable): Promise<Closeable> {
    const part: Part = { name, start, running: null, removed: false };
    this.parts.push(part);
    try {
      await this.transition(async () => {
        if (this.lease?.held) await this.startPart(part, this.lease, true);
      });
    } catch (error) {
      this.parts.splice(this.parts.indexOf(part), 1);
      throw error;
    }
    return {
      close: () =>
        this.transition(async () => {
          part.removed = true;
          const at = this.parts.indexOf(part);
          if (at >= 0) this.parts.splice(at, 1);
          await this.stopPart(part);
        }),
    };
  }

  async close(): Promise<void> {
    if (this.stop.signal.aborted) return;
    this.stop.abort();
    await this.competing;
    const lease = this.lease;
    await this.transition(async () => {
      for (const part of [...this.parts].reverse()) await this.stopPart(part);
    });
    await lease?.release();
    await this.options.leases.close();
  }
}

/** Competes for the lease `name` (one try before it resolves, then every `retryMs`). */
export async function openLeadership(options: LeadershipOptions): Promise<Leadership> {
  if (!Number.isInteger(options.retryMs) || options.retryMs < 1)
    throw new TypeError(`invalid lease retry ${options.retryMs} ms: a positive integer`);
  const leadership = new LeaseLeadership(options);
  await leadership.begin();
  return leadership;
}

/**
 * The leadership of the context a read store belongs to, set by the context runtime: a projection
 * or process manager on that store runs only while its replica leads, with no wiring in the context.
 */
const byReadStore = new WeakMap<ReadStore, Leadership>();

export function attachLeadership(readStore: ReadStore, leadership: Leadership): void {
  byReadStore.set(readStore, leadership);
}

export function detachLeadership(readStore: ReadStore): void {
  byReadStore.delete(readStore);
}

export function leadershipOf(readStore: ReadStore): Leadership | null {
  return byReadStore.get(readStore) ?? null;
}

/**
 * The bus a context's own code uses: requests and handlers as they are (every replica serves them,
 * a queue group each), durable consumers (reactors) only on the replica that leads. A transient
 * listener (`options.transient`) is per process and runs everywhere.
 */
export function leaderBus(bus: Bus, leadership: Leadership): Bus {
  return wrapBus(bus, {
    consume: (consumer, options, handler) =>
      options.transient
        ? bus.consume(consumer, options, handler)
        : leadership.whileLeading(`consumer ${consumer}`, () => bus.consume(consumer, options, handler)),
  });
}
