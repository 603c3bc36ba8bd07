import { closeSync, fdatasync, openSync } from 'node:fs';

/** `fs.fdatasync`'s shape (a test may hold or fail it). */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void;

/**
 * The fsync that `synchronous = FULL` asks of a commit, made on the libuv thread pool instead of in
 * the COMMIT: the connection commits at NORMAL (the frames are written to the WAL, not yet synced),
 * and the group's writers are answered only once an fdatasync of the WAL file that began after their
 * COMMIT has returned. The thread serving requests and projections no longer waits on the disk, and
 * one fdatasync covers every group committed while the previous one ran. Durability at the answer is
 * FULL's: the WAL is a log replayed in order, so a synced frame has every earlier frame synced too.
 *
 * Why it is kept (measured with `npm run bench -- jobs` at FULL, 50 jobs/s, this store with and without
 * it alternating): with the fsync in the COMMIT the calculations thread's event loop was busy several
 * times its CPU time per job, waiting on the disk, and the service finished about half as many jobs a second.
 */
export class WalSync {
  private fd: number | null = null;
  private running = false;
  private closing = false;
  /** Answers for the commits made since the running fdatasync began: the next one covers them. */
  private waiting: Array<(error: Error | null) => void> = [];

  constructor(
    private readonly walFile: string,
    private readonly syncFile: SyncFile = fdatasync,
  ) {}

  /** Calls `done` once everything committed to the WAL so far is on disk, or with the error. */
  after(done: (error: Error | null) => void): void {
    this.waiting.push(done);
    if (!this.running) this.start();
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    let fd: number;
    try {
      // An fsync reaches the file's data whichever descriptor wrote it: SQLite's own stays private.
      fd = this.fd ??= openSync(this.walFile, 'r');
    } catch (error) {
      for (const done of batch) done(error as Error);
      return;
    }
    this.running = true;
    this.syncFile(fd, (error) => {
      this.running = false;
      for (const done of batch) done(error);
      if (this.waiting.length > 0) this.start();
      else if (this.closing) this.release();
    });
  }

  /** Closes its descriptor once the fdatasync under way (if any) returned. */
  close(): void {
    this.closing = true;
    if (!this.running) this.release();
  }

  private release(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * A store's own commits whose fsync (WalSync) has not returned yet: in the WAL and readable through
 * this connection, but not durable. Readers of this process are kept from them, as SQLite's own FULL
 * would (it syncs before it publishes a commit to readers): subscriptions see only what is durable,
 * and a read that returns such an event waits for its fsync, so nothing is acted on or answered from
 * an event a power loss could still take back.
 */
export class SyncFence {
  private written = 0n;
  private synced = 0n;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];

  /** An own commit up to `position` is in the WAL. */
  wrote(position: bigint): void {
    if (position > this.written) this.written = position;
  }

  /** An own commit up to `position` is on disk (or its fsync failed: readers are not kept waiting for it). */
  reached(position: bigint): void {
    if (position > this.synced) this.synced = position;
    const settled = this.written <= this.synced;
    // With no own commit left to sync, rows another connection wrote are as durable as they get.
    this.waiters = this.waiters.filter((w) => (settled || w.position <= this.synced ? (w.resolve(), false) : true));
  }

  /** The rows (in position order) a reader may see now: those before the first own unsynced one. */
  visible<R extends { position: bigint }>(rows: R[]): R[] {
    if (this.written <= this.synced) return rows;
    const cut = rows.findIndex((row) => row.position > this.synced);
    return cut < 0 ? rows : rows.slice(0, cut);
  }

  /** Resolves once what a read up to `position` returned is durable; null when it already is. */
  until(position: bigint | undefined): Promise<void> | null {
    if (position === undefined || this.written <= this.synced || position <= this.synced) return null;
    return new Promise((resolve) => this.waiters.push({ position, resolve }));
  }
}
