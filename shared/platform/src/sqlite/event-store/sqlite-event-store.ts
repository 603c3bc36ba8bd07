import Database from 'better-sqlite3';
import { EventIdConflictError, WrongExpectedRevisionError } from '../../ports/event-store.ts';
import type * as port from '../../ports/event-store.ts';
import { repeatedAppend, revisionMatches } from '../../internal/append-rules.ts';
import { PollingSubscription } from '../../internal/polling-subscription.ts';
import { checkpointInBackground } from '../background-checkpoints.ts';
import { openSqlite, type SqliteSynchronous } from '../sqlite-connection.ts';
import { CommittedTail } from './committed-tail.ts';
import { GroupCommit } from './group-commit.ts';
import { COLUMNS, SCHEMA, type EventRow } from './schema.ts';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.ts';
import { SyncFence, WalSync, type SyncFile } from './wal-sync.ts';
import { withStoredJson } from '../../internal/stored-json.ts';

export { openSqliteCheckpointStore, SqliteCheckpointStore } from './sqlite-checkpoint-store.ts';

export interface SqliteEventStoreOptions {
  /** Database file, or `:memory:` for tests. */
  file: string;
  /** How often an idle subscription looks for appends made by another process (ms). */
  pollIntervalMs?: number;
  /** Commit durability (sqlite-connection.ts); FULL unless set. */
  synchronous?: SqliteSynchronous;
  /** How the WAL file is synced at FULL on disk (wal-sync.ts): `fs.fdatasync` unless a test holds or fails it. */
  syncFile?: SyncFile;
}

const READ_BATCH = 256;

function toRecorded(row: EventRow): port.RecordedEvent {
  const event = {
    event_id: row.event_id,
    type: row.type,
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    occurred_at: row.occurred_at,
  };
  // `data` and `metadata` are parsed on first read, from the row's text (internal/stored-json.ts).
  return withStoredJson(event, row) as port.RecordedEvent;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Wakes a sleeping subscription: after a commit of its store (`ownCommit`), its poll tick, or close. */
type Wake = (ownCommit: boolean) => void;

export class SqliteEventStore implements port.EventStore {
  readonly checkpoints: SqliteCheckpointStore;
  private readonly db: Database.Database;
  /** Hands the file back from the checkpoint thread (background-checkpoints.ts). */
  private readonly releaseCheckpoints: () => void;
  private readonly pollIntervalMs: number;
  /** Subscriptions waiting for events. */
  private sleepers = new Set<Wake>();
  /** Commits and poll ticks so far: one during a subscription's read sends it to read again, not to sleep. */
  private wakeups = 0;
  private readonly subscriptions = new Set<PollingSubscription<EventRow>>();
  /** Wakes idle subscriptions to look for appends made by another connection; runs while any is open. */
  private poller: NodeJS.Timeout | undefined;
  private readonly statements;
  private readonly appendTransaction;
  private readonly writes: GroupCommit;
  /** Keeps this process's readers from its own commits whose off-thread fsync has not returned. */
  private readonly fence = new SyncFence();
  /** This store's latest synced rows, which its subscriptions take instead of reading them back. */
  private readonly tail = new CommittedTail();
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    this.db = openSqlite(options.file, SCHEMA, options.synchronous);
    this.releaseCheckpoints = checkpointInBackground(this.db, options.file);
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    const onDisk = options.file !== ':memory:' && options.file !== '';
    const walSync = (options.synchronous ?? 'FULL') === 'FULL' && onDisk ? new WalSync(`${this.db.name}-wal`, options.syncFile) : null;
    this.writes = new GroupCommit(this.db, () => this.wakeAll(true), walSync);
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
        events: port.NewEvent[],
        expected: port.ExpectedRevision,
        key: string | undefined,
        rows: EventRow[],
        idsFirst: boolean,
      ): port.AppendResult => {
        // The key is looked up inside the write lock: of two racing appends under one key, the second sees the first.
        const earlier = key === undefined ? undefined : this.statements.keyed.get(key, stream);
        if (earlier) return { next_revision: earlier.next_revision, position: earlier.position };
        const result = this.appendInTransaction(stream, events, expected, rows, idsFirst);
        if (key !== undefined) this.statements.recordKey.run(key, stream, result.next_revision, result.position);
        return result;
      },
    );
  }

  // The result's type is the port's (\`implements\` checks it).
  async append(stream: string, events: port.NewEvent[], expected: port.ExpectedRevision, options: port.AppendOptions = {}) {
    this.assertOpen();
    const key = options.idempotencyKey;
    // The group's transaction is IMMEDIATE: it takes the write lock before any revision is read, so two
    // processes cannot both pass the check; inside the group, appends run one after another (in
    // savepoints), so of two appends to one stream with the same expected revision the second fails.
    const written = await this.writes.run(
      () => {
        let rows: EventRow[] = [];
        try {
          return { result: this.appendTransaction(stream, events, expected, key, rows, false), rows };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // An id stored before (a repeated append, or a conflict): its savepoint was rolled back, so it
          // is decided again with the stored ids looked up first, as the rules of a repeated append say.
          rows = [];
          return { result: this.appendTransaction(stream, events, expected, key, rows, true), rows };
        }
      },
      // Readable through this connection once written; visible to this process's readers, and kept for
      // its subscriptions, once synced.
      {
        written: ({ result }) => this.fence.wrote(result.position),
        committed: ({ result, rows }) => {
          this.tail.add(rows);
          this.fence.reached(result.position);
        },
      },
    );
    return written.result;
  }

  async appendedUnder(stream: string, idempotencyKey: string): Promise<port.AppendResult | null> {
    this.assertOpen();
    this.writes.beforeRead();
    const row = this.statements.keyed.get(idempotencyKey, stream);
    if (row) await this.fence.until(row.position);
    return row ? { next_revision: row.next_revision, position: row.position } : null;
  }

  /**
   * Appends in the caller's transaction. Stored ids decide before the revision (a repeated append gets
   * its first result even though the stream moved on since), but they are looked up only when they can
   * matter: when the revision does not match, or when `idsFirst` (an insert failed on a unique id).
   */
  private appendInTransaction(
    stream: string,
    events: port.NewEvent[],
    expected: port.ExpectedRevision,
    rows: EventRow[],
    idsFirst: boolean,
  ): port.AppendResult {
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

  async readStream(stream: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    this.assertOpen();
    this.writes.beforeRead();
    const rows = this.statements.readStream.all(stream, options.fromRevision ?? 0n, options.maxCount ?? -1);
    // In revision order, so in position order too: the last row is the latest.
    await this.fence.until(rows.at(-1)?.position);
    return rows.map(toRecorded);
  }

  async readAll(options: port.ReadAllOptions = {}): Promise<port.RecordedEvent[]> {
    this.assertOpen();
    this.writes.beforeRead();
    const rows = this.statements.readAll.all(options.after ?? 0n, options.maxCount ?? -1);
    await this.fence.until(rows.at(-1)?.position);
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    this.writes.beforeRead();
    return this.statements.head.get()?.head ?? 0n;
  }

  subscribeToAll(options: port.SubscribeOptions = {}): port.Subscription {
    this.assertOpen();
    // Whether its last wake was this store's own commit (the committed tail then says what is new); it
    // holds until it sleeps again: the batches it reads meanwhile follow that commit.
    let ownCommitWoke = false;
    const subscription: PollingSubscription<EventRow> = new PollingSubscription(
      {
        readAfter: (after) => this.rowsAfter(after, ownCommitWoke),
        toEvent: toRecorded,
        wakeups: () => this.wakeups,
        wait: async (abort) => {
          if (abort.aborted) return;
          const { woken, cancel } = this.sleep();
          abort.addEventListener('abort', cancel, { once: true });
          try {
            ownCommitWoke = await woken;
          } finally {
            abort.removeEventListener('abort', cancel);
          }
        },
      },
      options,
      () => {
        this.subscriptions.delete(subscription);
        if (this.subscriptions.size === 0) this.stopPolling();
      },
    );
    this.subscriptions.add(subscription);
    // Another connection's commits (a CLI, another process) ring no bell here: a tick looks for them.
    this.poller ??= setInterval(() => this.wakeAll(false), this.pollIntervalMs).unref();
    return subscription;
  }

  /**
   * Up to a batch of rows after `after`. Unlike the reads of a command, it does not commit the writes
   * queued meanwhile: their group's commit wakes the subscription again, and a subscription reading
   * between two writers' appends would otherwise split their group in two commits.
   */
  rowsAfter(after: bigint, ownCommitWoke: boolean): EventRow[] {
    const kept = this.tail.after(after, READ_BATCH);
    if (kept) return kept;
    // Woken by its own store's commit and past all of it: nothing new without a query. Rows another
    // connection committed after it are found at the next poll tick, as another's always are.
    if (ownCommitWoke && this.tail.last === after) return [];
    return this.fence.visible(this.statements.readAll.all(after, READ_BATCH));
  }

  /** Resolves at the next commit of this store, poll tick or close. */
  sleep(): { woken: Promise<boolean>; cancel: () => void } {
    let wake!: Wake;
    const woken = new Promise<boolean>((resolve) => (wake = resolve));
    this.sleepers.add(wake);
    return { woken, cancel: () => (this.sleepers.delete(wake), wake(false)) };
  }

  private wakeAll(ownCommit: boolean): void {
    this.wakeups++;
    if (this.sleepers.size === 0) return;
    const sleepers = this.sleepers;
    this.sleepers = new Set();
    for (const wake of sleepers) wake(ownCommit);
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

export function openSqliteEventStore(options: SqliteEventStoreOptions): SqliteEventStore {
  return new SqliteEventStore(options);
}
