import type Database from 'better-sqlite3';
import type { WalSync } from './wal-sync.ts';

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * How long a consumer checkpoint waits for company (see `run`'s `lazy`) before committing on its own.
 * A crash in between loses at most this much of a checkpoint's progress, which only makes its
 * consumer handle those events again.
 */
const LAZY_WAIT_MS = 20;

interface Write {
  run: () => unknown;
  lazy: boolean;
  /** Sees the write's result once the group's COMMIT returned (readable through this connection). */
  written: ((value: unknown) => void) | undefined;
  /** Sees it once it is also durable, before anyone is answered or woken. */
  committed: ((value: unknown) => void) | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the writes asked for while the promise jobs of one step run (up to the next read of
 * the store, which commits them first) share one IMMEDIATE transaction, so at `synchronous = FULL`
 * they share one fsync instead of paying one each (the fsync, not the SQL, bounds the write rate).
 * Each write runs in its own savepoint (a nested better-sqlite3 transaction): it keeps its own checks
 * and its own result or error, and a failing write leaves the others in the group untouched. Every
 * promise settles only after the COMMIT returned, so an acknowledged write is as durable as the
 * connection's `synchronous` level makes a commit. At FULL on disk the fsync is a WalSync's, off the
 * event loop: the connection commits at NORMAL and every promise settles once the WAL is synced.
 */
export class GroupCommit {
  private pending: Write[] = [];
  private scheduled = false;
  /** Set while only lazy writes wait: they commit when it fires, or sooner with the next group. */
  private lazyTimer: NodeJS.Timeout | undefined;
  private readonly commit: Database.Transaction<(runs: Array<() => unknown>) => Outcome[]>;

  constructor(
    private readonly db: Database.Database,
    /** Called after a commit (and its fsync), before any writer is answered: the store wakes its subscriptions. */
    private readonly onCommitted: () => void = () => undefined,
    /** Makes FULL's fsync off the thread; the connection then commits at NORMAL. */
    private readonly walSync: WalSync | null = null,
  ) {
    if (walSync) db.pragma('synchronous = NORMAL');
    this.commit = db.transaction((runs: Array<() => unknown>) =>
      runs.map((run): Outcome => {
        try {
          return { ok: true, value: run() };
        } catch (error) {
          // An error SQLite answers by rolling the whole transaction back (I/O, disk full) fails the group.
          if (!this.db.inTransaction) throw error;
          return { ok: false, error };
        }
      }),
    );
  }

  /**
   * Queues `run` (synchronous SQL, in a savepoint if it may fail half-way) for the next group. A
   * `lazy` write (a consumer checkpoint, which the relay saves after each event it publishes) waits
   * up to LAZY_WAIT_MS for the next group instead of starting one: a commit of its own each was most
   * of the store's commits when appends came one at a time.
   */
  run<T>(run: () => T, options: { lazy?: boolean; written?: (value: T) => void; committed?: (value: T) => void } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        run,
        lazy: options.lazy ?? false,
        written: options.written as Write['written'],
        committed: options.committed as Write['committed'],
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (this.scheduled) return;
      if (options.lazy) {
        this.lazyTimer ??= setTimeout(() => this.flush(), LAZY_WAIT_MS).unref();
        return;
      }
      this.scheduled = true;
      // A tick, neither a promise job nor a loop turn: Node runs ticks once the promise jobs are
      // drained, so every write the running promise chains make before they wait joins the group,
      // and the group commits before any I/O or timer callback runs.
      process.nextTick(() => this.flush());
    });
  }

  /**
   * Commits the group now if it holds anything but lazy writes. Every read calls it, so a read sees every write
   * issued before it, as when each write committed at once: a command reading its stream to decide
   * sees the appends just made to it, and a caller that asks for the head after starting an append counts it.
   */
  beforeRead(): void {
    if (this.pending.some((w) => !w.lazy)) this.flush();
  }

  /** Commits the group now if it holds anything: a checkpoint read sees the save issued before it. */
  beforeCheckpointRead(): void {
    if (this.pending.length > 0) this.flush();
  }

  /** Commits what is queued now (also called on close, so no queued write is dropped). */
  flush(): void {
    this.scheduled = false;
    clearTimeout(this.lazyTimer);
    this.lazyTimer = undefined;
    const group = this.pending;
    if (group.length === 0) return;
    this.pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.commit.immediate(group.map((w) => w.run));
    } catch (error) {
      for (const w of group) w.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => outcome.ok && group[i]!.written?.(outcome.value));
    // Nobody hears of a write (neither its writer nor a subscription) before it is on disk.
    if (this.walSync) this.walSync.after((error) => this.settle(group, outcomes, error));
    else this.settle(group, outcomes, null);
  }

  /**
   * After a failed fsync the commits stay in the WAL, readable, their durability unknown: the writers
   * hear of the failure (a retry under the same idempotency key finds what was stored), and readers go
   * on as after any commit instead of waiting for an fsync that will not come.
   */
  private settle(group: Write[], outcomes: Outcome[], syncFailure: Error | null): void {
    outcomes.forEach((outcome, i) => outcome.ok && group[i]!.committed?.(outcome.value));
    // Subscriptions are woken for events, not for a group of checkpoints alone.
    if (group.some((w) => !w.lazy)) this.onCommitted();
    outcomes.forEach((outcome, i) =>
      syncFailure ? group[i]!.reject(syncFailure) : outcome.ok ? group[i]!.resolve(outcome.value) : group[i]!.reject(outcome.error),
    );
  }

  /** Commits what is queued, then lets go of the WAL file once its last fsync returned. */
  close(): void {
    this.flush();
    this.walSync?.close();
  }
}
