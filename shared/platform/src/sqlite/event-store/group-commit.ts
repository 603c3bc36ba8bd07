import type Database from 'better-sqlite3';

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
 * connection's `synchronous` level makes a commit (at FULL, SQLite syncs the WAL before COMMIT returns).
 */
export class GroupCommit {
  private pending: Write[] = [];
  private scheduled = false;
  /** Set while only lazy writes wait: they commit when it fires, or sooner with the next group. */
  private lazyTimer: NodeJS.Timeout | undefined;
  private readonly commit: Database.Transaction<(runs: Array<() => unknown>) => Outcome[]>;

  constructor(
    private readonly db: Database.Database,
    /** Called after a commit, before any writer is answered: the store wakes its subscriptions. */
    private readonly onCommitted: () => void = () => undefined,
  ) {
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
  run<T>(run: () => T, options: { lazy?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run, lazy: options.lazy ?? false, resolve: resolve as (value: unknown) => void, reject });
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
    // Subscriptions are woken for events, not for a group of checkpoints alone.
    if (group.some((w) => !w.lazy)) this.onCommitted();
    outcomes.forEach((outcome, i) => (outcome.ok ? group[i]!.resolve(outcome.value) : group[i]!.reject(outcome.error)));
  }
}
