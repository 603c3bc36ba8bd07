/**
 * Lease port: at most one holder of a name at a time among the processes sharing a store, so
 * replicas of a context run its background work (relay, projections, reactors) exactly once.
 * A holder learns it lost the lease through `lost` and must stop that work at once.
 */

export interface Lease {
  readonly name: string;
  /** True from acquisition until it is released or lost. */
  readonly held: boolean;
  /** Aborted when this process stops holding the lease: released, its store closed, or its connection gone. */
  readonly lost: AbortSignal;
  /** Gives the lease up (a no-op once lost); another process may take it at its next try. */
  release(): Promise<void>;
}

export interface LeaseStore {
  /**
   * One try, without waiting: the lease when this process now holds `name`, null when someone else
   * does (another process, or an unreleased lease of this store).
   */
  tryAcquire(name: string): Promise<Lease | null>;
  /** Releases every lease it holds and frees its connections. */
  close(): Promise<void>;
}

/** A lease name: visible ASCII, 1 to 200 characters. */
export function assertLeaseName(name: string): string {
  if (typeof name !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(name)) {
    throw new TypeError(`invalid lease name ${JSON.stringify(name)}: 1 to 200 visible ASCII characters`);
  }
  return name;
}

/** The bookkeeping every adapter shares: `held` and `lost` move together, once. */
export class HeldLease implements Lease {
  private readonly controller = new AbortController();

  constructor(
    readonly name: string,
    private readonly onRelease: () => Promise<void>,
  ) {}

  get held(): boolean {
    return !this.controller.signal.aborted;
  }

  get lost(): AbortSignal {
    return this.controller.signal;
  }

  /** The adapter calls this when the lease is gone without a release (connection lost, store closed). */
  markLost(reason: string): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error(`lease ${this.name} lost: ${reason}`));
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.markLost('released');
    await this.onRelease();
  }
}
