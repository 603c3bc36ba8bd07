import Database from 'better-sqlite3';
import { closeSync, fdatasync, openSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import {
  EventIdConflictError,
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type CheckpointStore,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../ports/event-store.ts';
import { repeatedAppend, revisionMatches } from '../internal/append-rules.ts';
import { checkpointInBackground } from './background-checkpoints.ts';
import { openSqlite, type SqliteSynchronous } from './sqlite-connection.ts';
import { SerialSubscription, streamWanted } from '../internal/serial-subscription.ts';

export interface SqliteEventStoreOptions {
  /** Database file, or `:memory:` for tests. */
  file: string;
  /** How often an idle subscription looks for appends made by another process (ms). */
  pollIntervalMs?: number;
  /** Commit durability (sqlite-connection.ts); FULL unless set. */
  synchronous?: SqliteSynchronous;
  /** How the WAL file is synced at FULL: `fs.fdatasync` unless a test holds or fails it. */
  syncFile?: SyncFile;
}

/** `fs.fdatasync`'s shape. */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void;

const CHECKPOINT_SCHEMA = `
CREATE TABLE IF NOT EXISTS consumer_checkpoints (
  consumer TEXT PRIMARY KEY,
  position INTEGER NOT NULL
);
`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id    TEXT    NOT NULL UNIQUE,
  stream      TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL CHECK (json_valid(data)),
  metadata    TEXT    NOT NULL CHECK (json_valid(metadata)),
  occurred_at TEXT    NOT NULL,
  UNIQUE (stream, revision)
);
CREATE TABLE IF NOT EXISTS idempotent_appends (
  idempotency_key TEXT    NOT NULL,
  stream          TEXT    NOT NULL,
  next_revision   INTEGER NOT NULL,
  position        INTEGER NOT NULL,
  PRIMARY KEY (idempotency_key, stream)
) WITHOUT ROWID;
${CHECKPOINT_SCHEMA}`;

interface EventRow {
  position: bigint;
  event_id: string;
  stream: string;
  revision: bigint;
  type: string;
  data: string;
  metadata: string;
  occurred_at: string;
}

const COLUMNS = 'position, event_id, stream, revision, type, data, metadata, occurred_at';
const READ_BATCH = 256;
/** Rows of its own latest commits a store keeps for its subscriptions (trimmed to this once it holds twice as many). */
const TAIL_ROWS = 1024;

/** Who woke a subscription: a store of this process that committed events, or null (its store's poll tick, or close). */
type Wake = (committer: SqliteEventStore | null) => void;

/**
 * One bell per database file in the process, rung by every store opened on that file when it commits
 * events (a CLI and a service, or two tests on one file, see each other's appends at once). Stores on
 * other files are not woken: with every context in one process (embedded), a shared bell would wake
 * every subscription of every context on each append. A waiting subscription costs a set entry, no
 * timer and no abort listener: those were a visible share of an embedded job's CPU.
 */
class Bell {
  private waiters = new Set<Wake>();
  /** The store whose commit rang last. */
  lastCommitter: SqliteEventStore | null = null;
  ring(committer: SqliteEventStore | null): void {
    if (committer) this.lastCommitter = committer;
    if (this.waiters.size === 0) return;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake(committer);
  }
  listen(wake: Wake): void {
    this.waiters.add(wake);
  }
  forget(wake: Wake): void {
    this.waiters.delete(wake);
  }
}
const bells = new Map<string, Bell>();
function bellOf(file: string): Bell {
  if (file === ':memory:' || file === '') return new Bell();
  let bell = bells.get(file);
  if (!bell) bells.set(file, (bell = new Bell()));
  return bell;
}

/**
 * The rows a store itself committed last, in position order and without a gap: what its subscriptions
 * (a context's relay, projections and process managers, each tailing the same log) would otherwise
 * each read back from SQLite right after the commit that woke them. It only ever answers with the
 * rows that directly follow a position; any other read (a subscription catching up, rows another
 * connection wrote) goes to the database, so a miss costs a query and never an event.
 */
class CommittedTail {
  private rows: EventRow[] = [];

  /** Rows of one commit, in order. A gap (another connection wrote in between) starts the tail afresh. */
  add(rows: EventRow[]): void {
    for (const row of rows) {
      const last = this.rows[this.rows.length - 1];
      if (last && row.position !== last.position + 1n) this.rows = [];
      this.rows.push(row);
    }
    if (this.rows.length > 2 * TAIL_ROWS) this.rows = this.rows.slice(-TAIL_ROWS);
  }

  /** The last position held, or null when empty. */
  get last(): bigint | null {
    return this.rows.length === 0 ? null : this.rows[this.rows.length - 1]!.position;
  }

  /** Up to `max` rows directly after `after`, or null when the tail does not hold the row after it. */
  after(after: bigint, max: number): EventRow[] | null {
    const first = this.rows[0];
    if (!first || after + 1n < first.position) return null;
    const index = Number(after + 1n - first.position);
    return index < this.rows.length ? this.rows.slice(index, index + max) : null;
  }
}

/** Rows of recently written or read streams the store keeps to answer `readStream` (LRU, by rows held). */
const STREAM_ROWS = 2048;
/** Rows kept of one stream at most (its latest), so a long stream does not push every other one out. */
const STREAM_ROWS_EACH = 256;

/**
 * The latest rows of streams this store wrote or read lately, each a run up to the stream's head as
 * this connection last saw it. A command reads its stream from the revision after the state it folded
 * before, which is mostly the events the previous command just appended (or none): each such read
 * was a query, though the store had those rows in hand. Only valid while no other connection commits:
 * the store drops the lot when `data_version` says one did (`othersCommittedNothing`).
 */
class StreamRows {
  private readonly streams = new Map<string, { from: bigint; rows: EventRow[] }>();
  private count = 0;

  clear(): void {
    this.streams.clear();
    this.count = 0;
  }

  /** Rows `from` on, at most `max` (all when negative), or null when the run does not cover `from`. */
  read(stream: string, from: bigint, max: number): EventRow[] | null {
    const entry = this.streams.get(stream);
    if (!entry || from < entry.from) return null;
    this.streams.delete(stream);
    this.streams.set(stream, entry);
    const start = from - entry.from;
    if (start >= BigInt(entry.rows.length) || max === 0) return [];
    const index = Number(start);
    return entry.rows.slice(index, max < 0 ? undefined : index + max);
  }

  /** Rows this store committed (one or more streams, in position order): each stream's new head. */
  wrote(rows: EventRow[]): void {
    for (const row of rows) {
      const entry = this.streams.get(row.stream);
      if (entry && entry.from + BigInt(entry.rows.length) === row.revision) this.keep(row.stream, entry.from, [...entry.rows, row]);
      // A stream it did not hold, or whose rows in between it did not see: known from this row to its head.
      else this.keep(row.stream, row.revision, [row]);
    }
  }

  /** Rows a query read from `from` to the stream's head (an empty stream when none from 0). */
  readToHead(stream: string, from: bigint, rows: EventRow[]): void {
    if (rows.length === 0 && from !== 0n) return;
    this.keep(stream, from, rows);
  }

  private keep(stream: string, from: bigint, rows: EventRow[]): void {
    const old = this.streams.get(stream);
    if (old) {
      this.count -= old.rows.length;
      this.streams.delete(stream);
    }
    if (rows.length > STREAM_ROWS_EACH) {
      from += BigInt(rows.length - STREAM_ROWS_EACH);
      rows = rows.slice(-STREAM_ROWS_EACH);
    }
    this.streams.set(stream, { from, rows });
    this.count += rows.length;
    for (const [oldest, entry] of this.streams) {
      if (this.count <= STREAM_ROWS || oldest === stream) break;
      this.streams.delete(oldest);
      this.count -= entry.rows.length;
    }
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  const event = {
    event_id: row.event_id,
    type: row.type,
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    occurred_at: row.occurred_at,
  } as RecordedEvent;
  // `data` and `metadata` are parsed on first read: a context's log is tailed by several consumers
  // (relay, projections, process managers) and most of them skip most events by stream or type
  // without looking inside. Own enumerable properties, so spreading, JSON and equality see them. The
  // accessors are the same two functions for every event, which find the text through a hidden
  // property: two closures per event gave each event accessors of its own to allocate.
  Object.defineProperty(event, ROW, { value: row });
  Object.defineProperty(event, 'data', LAZY_DATA);
  Object.defineProperty(event, 'metadata', LAZY_METADATA);
  return event;
}

/** The row a recorded event was made from (not enumerable: spreading and JSON do not see it). */
const ROW = Symbol('row');

function lazyJson(key: 'data' | 'metadata'): PropertyDescriptor {
  // The first read or write turns the accessor into a plain property holding the value.
  const settle = (target: object, value: unknown) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return {
    enumerable: true,
    configurable: true,
    get(this: { [ROW]: EventRow }) {
      const value: unknown = JSON.parse(this[ROW][key]);
      // A frozen or sealed event cannot keep it: it is parsed again on each read instead.
      if (Object.isExtensible(this)) settle(this, value);
      return value;
    },
    set(this: object, next: unknown) {
      settle(this, next);
    },
  };
}
const LAZY_DATA = lazyJson('data');
const LAZY_METADATA = lazyJson('metadata');

/**
 * The fsync that `synchronous = FULL` asks of a commit, made on the libuv thread pool instead of in
 * the COMMIT: the connection commits at NORMAL (the frames are written to the WAL, not yet synced),
 * and the group's writers are answered only once an fdatasync of the WAL file that began after their
 * COMMIT has returned. The thread serving requests and projections no longer waits on the disk, and
 * one fdatasync covers every group committed while the previous one ran. Durability at the answer is
 * FULL's: the WAL is a log replayed in order, so a synced frame has every earlier frame synced too.
 */
class WalSync {
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
class SyncFence {
  private written = 0n;
  private synced = 0n;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];

  /** An own commit up to `position` is in the WAL. */
  wrote(position: bigint): void {
    if (position > this.written) this.written = position;
  }

  /** An own commit up to `position` is on disk. */
  reached(position: bigint): void {
    if (position > this.synced) this.synced = position;
    const settled = this.written <= this.synced;
    // With no own commit left to sync, rows another connection wrote are as durable as they get.
    this.waiters = this.waiters.filter((w) => (settled || w.position <= this.synced ? (w.resolve(), false) : true));
  }

  /** The rows (in position order) a reader may see now: those before the first own unsynced one. */
  visible(rows: EventRow[]): EventRow[] {
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

/**
 * How long a group of lazy writes only (consumer checkpoints) waits for company before committing on
 * its own. A crash in between loses at most this much of a checkpoint's progress, which only makes
 * its consumer handle those events again.
 */
const LAZY_GROUP_WAIT_MS = 20;

/**
 * Group commit: the writes asked for while the promise jobs of one step run (up to the next read of
 * the store, which commits them first) share one IMMEDIATE transaction, so at `synchronous = FULL`
 * they share one fsync instead of paying one each (the fsync, not the SQL, bounds the write rate). Each write runs in its own savepoint (a nested better-sqlite3
 * transaction): it keeps its own checks and its own result or error, and a failing write leaves the
 * others in the group untouched. Every promise settles only after the COMMIT returned, so an
 * acknowledged write is as durable as the connection's `synchronous` level makes a commit, except a
 * write queued as `lazy` (a consumer checkpoint): a group of lazy writes only is committed without an
 * fsync even at FULL. It survives a crash of the process at once (WAL, like NORMAL) and a power loss
 * from the next durable commit on (whose fsync covers the whole WAL); a checkpoint lost to a power
 * loss only makes its consumer handle some events again, which every consumer is built for.
 */
class GroupCommit {
  private pending: Array<{
    run: () => unknown;
    lazy: boolean;
    written: ((value: unknown) => void) | undefined;
    committed: ((value: unknown) => void) | undefined;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }> = [];
  private scheduled = false;
  /** Set while only lazy writes wait: they commit when it fires, or sooner with the next group. */
  private lazyTimer: NodeJS.Timeout | undefined;
  private readonly noSync: Database.Statement | null;
  private readonly fullSync: Database.Statement | null;
  /** Set when FULL's fsync is made off the thread (WalSync): the connection then commits at NORMAL. */
  private readonly walSync: WalSync | null;
  private readonly commit: Database.Transaction<
    (runs: Array<() => unknown>) => Array<{ ok: true; value: unknown } | { ok: false; error: unknown }>
  >;

  constructor(
    private readonly db: Database.Database,
    synchronous: SqliteSynchronous,
    private readonly onCommitted: () => void = () => undefined,
    /** The WAL file of a FULL store whose fsync may run off the thread; without it, COMMIT syncs. */
    walFile?: string,
    syncFile?: SyncFile,
  ) {
    this.walSync = synchronous === 'FULL' && walFile !== undefined ? new WalSync(walFile, syncFile) : null;
    if (this.walSync) db.pragma('synchronous = NORMAL');
    const toggles = synchronous === 'FULL' && !this.walSync;
    this.noSync = toggles ? db.prepare('PRAGMA synchronous = NORMAL') : null;
    this.fullSync = toggles ? db.prepare('PRAGMA synchronous = FULL') : null;
    this.commit = db.transaction((runs: Array<() => unknown>) =>
      runs.map((run) => {
        try {
          return { ok: true as const, value: run() };
        } catch (error) {
          // An error SQLite answers by rolling the whole transaction back (I/O, disk full) fails the group.
          if (!this.db.inTransaction) throw error;
          return { ok: false as const, error };
        }
      }),
    );
  }

  /**
   * Queues `run` (synchronous SQL, in a savepoint if it may fail half-way) for the next group.
   * `written` sees its result once the group's COMMIT returned; `committed` once it is also durable
   * (at once, unless WalSync makes the fsync), before anyone is woken or answered.
   */
  run<T>(run: () => T, options: { lazy?: boolean; written?: (value: T) => void; committed?: (value: T) => void } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        run,
        lazy: options.lazy ?? false,
        written: options.written as ((value: unknown) => void) | undefined,
        committed: options.committed as ((value: unknown) => void) | undefined,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (options.lazy) {
        // A checkpoint alone waits a little for company: it joins the next group of appends, or a
        // few checkpoints share one transaction, instead of each committing on its own.
        if (!this.scheduled && !this.lazyTimer) this.lazyTimer = setTimeout(() => this.flush(), LAZY_GROUP_WAIT_MS).unref();
      } else if (!this.scheduled) {
        this.scheduled = true;
        // A tick, neither a promise job nor a loop turn: Node runs ticks once the promise jobs are
        // drained, so every write the running promise chains make before they wait joins the group,
        // and the group commits before any I/O or timer callback runs.
        process.nextTick(() => this.flush());
      }
    });
  }

  /**
   * Commits the group now if it holds anything but lazy writes. Every read calls it, so a read sees
   * every write issued before it, as when each write committed at once: a command reading its stream
   * to decide sees the appends just made to it (two writers of one stream never decide on a stale
   * revision for long, nor spend their retries on it), and a caller that asks for the head after
   * starting an append counts it. Groups form from the writes issued between two reads.
   */
  beforeRead(): void {
    if (this.pending.some((w) => !w.lazy)) this.flush();
  }

  /** Commits the group now if it holds anything (a checkpoint read sees the save issued before it). */
  beforeCheckpointRead(): void {
    if (this.pending.length > 0) this.flush();
  }

  /** Commits what is queued now (also called on close, so no queued write is dropped). */
  flush(): void {
    this.scheduled = false;
    if (this.lazyTimer) {
      clearTimeout(this.lazyTimer);
      this.lazyTimer = undefined;
    }
    const group = this.pending;
    if (group.length === 0) return;
    this.pending = [];
    const lazy = group.every((w) => w.lazy);
    let outcomes;
    try {
      if (lazy) this.noSync?.run();
      outcomes = this.commit.immediate(group.map((w) => w.run));
    } catch (error) {
      for (const w of group) w.reject(error);
      return;
    } finally {
      if (lazy) this.fullSync?.run();
    }
    outcomes.forEach((outcome, i) => outcome.ok && group[i]!.written?.(outcome.value));
    // Nobody hears of a durable write (neither its writer nor a subscription) before it is on disk.
    if (this.walSync && !lazy) {
      const committed = outcomes;
      this.walSync.after((error) => this.settle(group, committed, lazy, error));
      return;
    }
    this.settle(group, outcomes, lazy, null);
  }

  /**
   * After a failed fsync the commits stay in the WAL, readable, their durability unknown: the writers
   * hear of the failure (a retry under the same idempotency key finds what was stored), and readers
   * go on as after any commit instead of waiting for an fsync that will not come.
   */
  private settle(
    group: GroupCommit['pending'],
    outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }>,
    lazy: boolean,
    syncFailure: Error | null,
  ): void {
    outcomes.forEach((outcome, i) => outcome.ok && group[i]!.committed?.(outcome.value));
    // Subscriptions are woken for events, not for a group of checkpoints alone.
    if (!lazy) this.onCommitted();
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

export class SqliteEventStore implements EventStore {
  readonly checkpoints: SqliteCheckpointStore;
  private readonly db: Database.Database;
  /** Hands the file back from the checkpoint thread (background-checkpoints.ts). */
  private readonly releaseCheckpoints: () => void;
  private readonly pollIntervalMs: number;
  private readonly bell: Bell;
  private readonly tail = new CommittedTail();
  private readonly recent = new StreamRows();
  /** `data_version` when `recent` was last found valid: another connection's commit changes it. */
  private seenVersion: bigint | null = null;
  private readonly fence = new SyncFence();
  private readonly subscriptions = new Set<SqliteSubscription>();
  /** Wakes idle subscriptions to look for appends made by another process; runs while any is open. */
  private poller: NodeJS.Timeout | undefined;
  private readonly statements;
  private readonly appendTransaction;
  private readonly writes: GroupCommit;
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    this.db = openSqlite(options.file, SCHEMA, options.synchronous);
    this.releaseCheckpoints = checkpointInBackground(this.db, options.file);
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.bell = bellOf(options.file === ':memory:' || options.file === '' ? options.file : resolvePath(options.file));
    const onDisk = options.file !== ':memory:' && options.file !== '';
    this.writes = new GroupCommit(
      this.db,
      options.synchronous ?? 'FULL',
      () => this.bell.ring(this),
      onDisk ? `${this.db.name}-wal` : undefined,
      options.syncFile,
    );
    // The store's checkpoints share its connection, so a relay's checkpoint joins the appends' commit.
    this.checkpoints = new SqliteCheckpointStore(this.db, false, this.writes);
    this.statements = {
      streamRevision: this.db.prepare<[string], { revision: bigint | null }>(
        'SELECT max(revision) AS revision FROM events WHERE stream = ?',
      ),
      byIds: this.db.prepare<[string], Pick<EventRow, 'event_id' | 'stream' | 'revision' | 'position'>>(
        'SELECT event_id, stream, revision, position FROM events WHERE event_id IN (SELECT value FROM json_each(?))',
      ),
      insert: this.db.prepare(
        'INSERT INTO events (event_id, stream, revision, type, data, metadata, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      readStream: this.db.prepare<[string, bigint, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      ),
      dataVersion: this.db.prepare<[], { data_version: bigint }>('PRAGMA data_version'),
      readAll: this.db.prepare<[bigint, number], EventRow>(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
      head: this.db.prepare<[], { head: bigint | null }>('SELECT max(position) AS head FROM events'),
      keyed: this.db.prepare<[string, string], { next_revision: bigint; position: bigint }>(
        'SELECT next_revision, position FROM idempotent_appends WHERE idempotency_key = ? AND stream = ?',
      ),
      recordKey: this.db.prepare('INSERT INTO idempotent_appends (idempotency_key, stream, next_revision, position) VALUES (?, ?, ?, ?)'),
    };
    this.appendTransaction = this.db.transaction(
      (
        stream: string,
        events: NewEvent[],
        expected: ExpectedRevision,
        key: string | undefined,
        rows: EventRow[],
        idsFirst: boolean,
      ): AppendResult => {
        // The key is looked up inside the write lock: of two racing appends under one key, the second sees the first.
        const earlier = key === undefined ? undefined : this.statements.keyed.get(key, stream);
        if (earlier) return { next_revision: earlier.next_revision, position: earlier.position };
        const result = this.appendInTransaction(stream, events, expected, rows, idsFirst);
        if (key !== undefined) this.statements.recordKey.run(key, stream, result.next_revision, result.position);
        return result;
      },
    );
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    // The group's transaction is IMMEDIATE: it takes the write lock before any revision is read, so two
    // processes cannot both pass the check; inside the group, appends run one after another (in
    // savepoints), so of two appends to one stream with the same expected revision the second fails.
    const written = await this.writes.run(
      () => {
        let rows: EventRow[] = [];
        try {
          return { result: this.appendTransaction(stream, events, expected, options.idempotencyKey, rows, false), rows };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // An id stored before (a repeated append, or a conflict): its savepoint was rolled back, so it
          // is decided again with the stored ids looked up first, as the rules of a repeated append say.
          rows = [];
          return { result: this.appendTransaction(stream, events, expected, options.idempotencyKey, rows, true), rows };
        }
      },
      {
        written: ({ rows }) => {
          // Readable through this connection from now on: `readStream` answers from them (and waits for their fsync).
          this.recent.wrote(rows);
          if (rows.length > 0) this.fence.wrote(rows[rows.length - 1]!.position);
        },
        committed: ({ rows }) => {
          this.tail.add(rows);
          if (rows.length > 0) this.fence.reached(rows[rows.length - 1]!.position);
        },
      },
    );
    return written.result;
  }

  async appendedUnder(stream: string, idempotencyKey: string): Promise<AppendResult | null> {
    this.assertOpen();
    this.writes.beforeRead();
    const row = this.statements.keyed.get(idempotencyKey, stream);
    if (row) await this.fence.until(row.position);
    return row ? { next_revision: row.next_revision, position: row.position } : null;
  }

  /**
   * Appends in the caller's transaction; `rows` receives each row as stored (the committed tail's copy).
   * Stored ids decide before the revision (a repeated append gets its first result even though the
   * stream moved on since), but they are looked up only when they can matter: when the revision does
   * not match, or when `idsFirst` (an insert failed on a unique id). Appends carry new ids but for a
   * retry, and the lookup was a query per append.
   */
  private appendInTransaction(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    rows: EventRow[],
    idsFirst: boolean,
  ): AppendResult {
    const ids = events.map((e) => e.event_id);
    if (new Set(ids).size !== ids.length) {
      throw new EventIdConflictError(stream, ids, 'the same event id appears twice in one append');
    }
    const current = this.statements.streamRevision.get(stream)?.revision ?? null;
    const matches = revisionMatches(expected, current);
    if (idsFirst || !matches) {
      const stored = ids.length === 0 ? [] : this.statements.byIds.all(JSON.stringify(ids));
      if (stored.length > 0) return repeatedAppend(stream, ids, expected, stored, 'consecutive');
    }

    if (!matches) throw new WrongExpectedRevisionError(stream, expected, current);
    let revision = current ?? -1n;
    let position = 0n;
    for (const event of events) {
      revision += 1n;
      const data = JSON.stringify(event.data);
      const metadata = JSON.stringify(event.metadata);
      const info = this.statements.insert.run(event.event_id, stream, revision, event.type, data, metadata, event.occurred_at);
      position = BigInt(info.lastInsertRowid);
      rows.push({ position, event_id: event.event_id, stream, revision, type: event.type, data, metadata, occurred_at: event.occurred_at });
    }
    if (events.length === 0) position = this.statements.head.get()?.head ?? 0n;
    return { next_revision: revision, position };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    this.writes.beforeRead();
    const rows = this.streamRows(stream, options.fromRevision ?? 0n, options.maxCount ?? -1);
    // In revision order, so in position order too: the last row is the latest.
    await this.fence.until(rows.at(-1)?.position);
    return rows.map(toRecorded);
  }

  /** The stream's rows from the ones kept of recent streams when they cover the read, else from the database. */
  private streamRows(stream: string, from: bigint, max: number): EventRow[] {
    const kept = this.recent.read(stream, from, max);
    if (kept && this.othersCommittedNothing()) return kept;
    // Kept whatever the version: rows read now are the stream's as of now, and any use is checked first.
    const rows = this.statements.readStream.all(stream, from, max);
    if (max < 0 || rows.length < max) this.recent.readToHead(stream, from, rows);
    return rows;
  }

  /**
   * Whether the kept rows still hold: no other connection (another process, a CLI) committed since they
   * were last found good, as `data_version` tells in one statement, cheaper than the read it spares
   * (this connection's own commits do not change it; they update the rows instead). Drops them if one did.
   */
  private othersCommittedNothing(): boolean {
    const version = this.statements.dataVersion.get()?.data_version ?? null;
    if (version === this.seenVersion) return true;
    this.recent.clear();
    this.seenVersion = version;
    return false;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    this.writes.beforeRead();
    const events = this.readAllSync(options.after ?? 0n, options.maxCount ?? -1);
    await this.fence.until(events.at(-1)?.position);
    return events;
  }

  private readAllSync(after: bigint, maxCount: number): RecordedEvent[] {
    return this.statements.readAll.all(after, maxCount).map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    this.writes.beforeRead();
    return this.statements.head.get()?.head ?? 0n;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const subscription = new SqliteSubscription(this, this.bell, options, () => {
      this.subscriptions.delete(subscription);
      if (this.subscriptions.size === 0) this.stopPolling();
    });
    this.subscriptions.add(subscription);
    this.poller ??= setInterval(() => {
      for (const s of this.subscriptions) s.poll();
    }, this.pollIntervalMs).unref();
    return subscription;
  }

  /**
   * The rows after `after` for a subscription last woken by `committer`: from the committed tail when
   * it holds the next row; none without a query when this store's own commit woke it, no other
   * connection of this process committed since, and the tail shows it has seen everything (another
   * process's appends are found on the next poll tick, as before); else from the database.
   */
  rowsAfter(after: bigint, committer: SqliteEventStore | null): EventRow[] {
    const cached = committer === null ? null : this.tail.after(after, READ_BATCH);
    if (cached) return cached;
    if (committer === this && this.bell.lastCommitter === this && this.tail.last === after) return [];
    this.writes.beforeRead();
    return this.fence.visible(this.statements.readAll.all(after, READ_BATCH));
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.writes.close();
    this.stopPolling();
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.db.close();
    this.releaseCheckpoints();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Catch-up then live: reads batches after its last position, and sleeps until an append or a poll tick. */
class SqliteSubscription extends SerialSubscription {
  /**
   * The rows last read, handed out from `nextRow` on. A row becomes an event only as it is handed out:
   * a batch made into events at once (up to 256) kept them all alive while the subscriber worked
   * through them, long enough for the GC to copy each one out of the young generation.
   */
  private rows: EventRow[] = [];
  private nextRow = 0;
  private after: bigint;
  private closed = false;
  /** Who woke it last; null first, so it starts by catching up from the database. */
  private committer: SqliteEventStore | null = null;
  /** Set while it sleeps: what wakes it (the bell, its store's poll tick, or close). */
  private sleeping: Wake | null = null;

  constructor(
    private readonly store: SqliteEventStore,
    private readonly bell: Bell,
    private readonly options: SubscribeOptions,
    private readonly onClose: () => void,
  ) {
    super();
    this.after = options.after ?? 0n;
  }

  protected async produce(): Promise<IteratorResult<RecordedEvent>> {
    while (!this.closed) {
      const event = this.nextEvent();
      if (event) return { done: false, value: event };
      const batch = this.store.rowsAfter(this.after, this.committer);
      if (batch.length > 0) {
        this.after = batch[batch.length - 1]!.position;
        this.rows = batch;
        this.nextRow = 0;
        continue;
      }
      this.committer = await new Promise<SqliteEventStore | null>((resolve) => {
        this.sleeping = resolve;
        this.bell.listen(resolve);
      });
      this.sleeping = null;
    }
    return { done: true, value: undefined };
  }

  /** The store's poll tick: a sleeping subscription looks in the database (appends by another process). */
  poll(): void {
    this.wake(null);
  }

  private wake(committer: SqliteEventStore | null): void {
    const sleeping = this.sleeping;
    if (!sleeping) return;
    this.bell.forget(sleeping);
    sleeping(committer);
  }

  private wanted(stream: string): boolean {
    return streamWanted(this.options.streamPrefixes, stream);
  }

  /** The next wanted row read and not yet handed out, as an event; undefined when there is none (or closed). */
  private nextEvent(): RecordedEvent | undefined {
    while (!this.closed && this.nextRow < this.rows.length) {
      const row = this.rows[this.nextRow++]!;
      // Filtered on the row: a subscriber with prefixes builds no event for other streams.
      if (this.wanted(row.stream)) return toRecorded(row);
    }
    return undefined;
  }

  takeBuffered(max: number): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    for (let event; events.length < max && (event = this.nextEvent()); ) events.push(event);
    return events;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.rows = [];
    this.wake(null);
    this.onClose();
  }
}

/** Consumer checkpoints kept in the event store's own file (e.g. for the bus relay). */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly loadStatement;
  private readonly saveStatement;

  private readonly writes: GroupCommit;
  private readonly lazy: boolean;

  constructor(
    private readonly db: Database.Database,
    private readonly ownsConnection: boolean,
    writes?: GroupCommit,
  ) {
    // On its own connection (a CLI's), a save is durable when it resolves, as it always was.
    this.lazy = writes !== undefined;
    this.writes = writes ?? new GroupCommit(db, 'FULL');
    this.loadStatement = db.prepare<[string], { position: bigint }>('SELECT position FROM consumer_checkpoints WHERE consumer = ?');
    this.saveStatement = db.prepare<[string, bigint]>(
      'INSERT INTO consumer_checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position',
    );
  }

  async load(consumer: string): Promise<bigint> {
    this.writes.beforeCheckpointRead();
    return this.loadStatement.get(consumer)?.position ?? 0n;
  }

  /**
   * Resolves once the checkpoint is committed, with the other writes made meanwhile on the
   * connection. On the event store's own connection it is a lazy write (see GroupCommit): the relay
   * saves one after every event it publishes, and an fsync for each was a third of the store's.
   */
  async save(consumer: string, position: bigint): Promise<void> {
    await this.writes.run(() => this.saveStatement.run(consumer, position), { lazy: this.lazy });
  }

  /** Closes the connection if this store opened it; the event store's own `checkpoints` close with it. */
  async close(): Promise<void> {
    if (this.ownsConnection && this.db.open) {
      this.writes.flush();
      this.db.close();
    }
  }
}

/** Checkpoints on their own connection, usually to the event store's file (`events.db`). */
export function openSqliteCheckpointStore(options: { file: string }): SqliteCheckpointStore {
  return new SqliteCheckpointStore(openSqlite(options.file, CHECKPOINT_SCHEMA), true);
}

export function openSqliteEventStore(options: SqliteEventStoreOptions): SqliteEventStore {
  return new SqliteEventStore(options);
}
