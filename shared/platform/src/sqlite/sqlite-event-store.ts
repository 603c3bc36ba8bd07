import Database from 'better-sqlite3';
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
import { Signal } from '../internal/async.ts';
import { repeatedAppend, revisionMatches } from '../internal/append-rules.ts';
import { openSqlite, type SqliteSynchronous } from './sqlite-connection.ts';

export interface SqliteEventStoreOptions {
  /** Database file, or `:memory:` for tests. */
  file: string;
  /** How often an idle subscription looks for appends made by another process (ms). */
  pollIntervalMs?: number;
  /** Commit durability (sqlite-connection.ts); FULL unless set. */
  synchronous?: SqliteSynchronous;
}

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

// One wake-up call per database file in the process, shared by every store opened on that file (a
// CLI and a service, or two tests on one file, see each other's appends at once). Stores on other
// files are not woken: with every context in one process (embedded), a shared call would wake every
// subscription of every context on each append, one empty query each.
const signals = new Map<string, Signal>();
function signalOf(file: string): Signal {
  if (file === ':memory:' || file === '') return new Signal();
  let signal = signals.get(file);
  if (!signal) signals.set(file, (signal = new Signal()));
  return signal;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    event_id: row.event_id,
    type: row.type,
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    occurred_at: row.occurred_at,
    data: JSON.parse(row.data) as RecordedEvent['data'],
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
  };
}


export class SqliteEventStore implements EventStore {
  readonly checkpoints: SqliteCheckpointStore;
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly appended: Signal;
  private readonly subscriptions = new Set<SqliteSubscription>();
  private readonly statements;
  private readonly appendTransaction;
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    this.db = openSqlite(options.file, SCHEMA, options.synchronous);
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.appended = signalOf(options.file === ':memory:' || options.file === '' ? options.file : resolvePath(options.file));
    this.checkpoints = new SqliteCheckpointStore(this.db, false);
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
      readAll: this.db.prepare<[bigint, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
      ),
      head: this.db.prepare<[], { head: bigint | null }>('SELECT max(position) AS head FROM events'),
      keyed: this.db.prepare<[string, string], { next_revision: bigint; position: bigint }>(
        'SELECT next_revision, position FROM idempotent_appends WHERE idempotency_key = ? AND stream = ?',
      ),
      recordKey: this.db.prepare('INSERT INTO idempotent_appends (idempotency_key, stream, next_revision, position) VALUES (?, ?, ?, ?)'),
    };
    this.appendTransaction = this.db.transaction(
      (stream: string, events: NewEvent[], expected: ExpectedRevision, key: string | undefined): AppendResult => {
        // The key is looked up inside the write lock: of two racing appends under one key, the second sees the first.
        const earlier = key === undefined ? undefined : this.statements.keyed.get(key, stream);
        if (earlier) return { next_revision: earlier.next_revision, position: earlier.position };
        const result = this.appendInTransaction(stream, events, expected);
        if (key !== undefined) this.statements.recordKey.run(key, stream, result.next_revision, result.position);
        return result;
      },
    );
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    // IMMEDIATE takes the write lock before reading the revision, so two processes cannot both pass the check.
    const result = this.appendTransaction.immediate(stream, events, expected, options.idempotencyKey);
    this.appended.notify();
    return result;
  }

  async appendedUnder(stream: string, idempotencyKey: string): Promise<AppendResult | null> {
    this.assertOpen();
    const row = this.statements.keyed.get(idempotencyKey, stream);
    return row ? { next_revision: row.next_revision, position: row.position } : null;
  }

  private appendInTransaction(stream: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const ids = events.map((e) => e.event_id);
    if (new Set(ids).size !== ids.length) {
      throw new EventIdConflictError(stream, ids, 'the same event id appears twice in one append');
    }
    const current = this.statements.streamRevision.get(stream)?.revision ?? null;
    const stored = ids.length === 0 ? [] : this.statements.byIds.all(JSON.stringify(ids));
    if (stored.length > 0) return repeatedAppend(stream, ids, expected, stored, 'consecutive');

    if (!revisionMatches(expected, current)) throw new WrongExpectedRevisionError(stream, expected, current);
    let revision = current ?? -1n;
    let position = 0n;
    for (const event of events) {
      revision += 1n;
      const info = this.statements.insert.run(
        event.event_id,
        stream,
        revision,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
        event.occurred_at,
      );
      position = BigInt(info.lastInsertRowid);
    }
    if (events.length === 0) position = this.statements.head.get()?.head ?? 0n;
    return { next_revision: revision, position };
  }


  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.statements.readStream
      .all(stream, options.fromRevision ?? 0n, options.maxCount ?? -1)
      .map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAllSync(options.after ?? 0n, options.maxCount ?? -1);
  }

  private readAllSync(after: bigint, maxCount: number): RecordedEvent[] {
    return this.statements.readAll.all(after, maxCount).map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return this.statements.head.get()?.head ?? 0n;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const subscription = new SqliteSubscription(
      (after) => this.readAllSync(after, READ_BATCH),
      this.appended,
      options,
      this.pollIntervalMs,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/** Catch-up then live: reads batches after its last position, and sleeps until an append or a poll tick. */
class SqliteSubscription implements Subscription {
  private buffer: RecordedEvent[] = [];
  private after: bigint;
  private readonly stop = new AbortController();
  // Serialises next() calls so a caller that does not await still gets events one at a time, in order.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly readAfter: (after: bigint) => RecordedEvent[],
    private readonly appended: Signal,
    private readonly options: SubscribeOptions,
    private readonly pollIntervalMs: number,
    private readonly onClose: () => void,
  ) {
    this.after = options.after ?? 0n;
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  next(): Promise<IteratorResult<RecordedEvent>> {
    const result = this.queue.then(() => this.produce());
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async produce(): Promise<IteratorResult<RecordedEvent>> {
    while (!this.stop.signal.aborted) {
      const event = this.buffer.shift();
      if (event) return { done: false, value: event };
      const batch = this.readAfter(this.after);
      if (batch.length > 0) {
        this.after = batch[batch.length - 1]!.position;
        this.buffer = batch.filter((e) => this.wanted(e));
        continue;
      }
      await this.appended.wait(this.pollIntervalMs, this.stop.signal);
    }
    return { done: true, value: undefined };
  }

  private wanted(event: RecordedEvent): boolean {
    const prefixes = this.options.streamPrefixes;
    return !prefixes || prefixes.some((prefix) => event.stream.startsWith(prefix));
  }

  takeBuffered(max: number): RecordedEvent[] {
    return this.stop.signal.aborted ? [] : this.buffer.splice(0, max);
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.buffer = [];
    this.onClose();
  }
}

/** Consumer checkpoints kept in the event store's own file (e.g. for the bus relay). */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly loadStatement;
  private readonly saveStatement;

  constructor(
    private readonly db: Database.Database,
    private readonly ownsConnection: boolean,
  ) {
    this.loadStatement = db.prepare<[string], { position: bigint }>(
      'SELECT position FROM consumer_checkpoints WHERE consumer = ?',
    );
    this.saveStatement = db.prepare<[string, bigint]>(
      'INSERT INTO consumer_checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position',
    );
  }

  async load(consumer: string): Promise<bigint> {
    return this.loadStatement.get(consumer)?.position ?? 0n;
  }

  async save(consumer: string, position: bigint): Promise<void> {
    this.saveStatement.run(consumer, position);
  }

  /** Closes the connection if this store opened it; the event store's own `checkpoints` close with it. */
  async close(): Promise<void> {
    if (this.ownsConnection && this.db.open) this.db.close();
  }
}

/** Checkpoints on their own connection, usually to the event store's file (`events.db`). */
export function openSqliteCheckpointStore(options: { file: string }): SqliteCheckpointStore {
  return new SqliteCheckpointStore(openSqlite(options.file, CHECKPOINT_SCHEMA), true);
}

export function openSqliteEventStore(options: SqliteEventStoreOptions): SqliteEventStore {
  return new SqliteEventStore(options);
}
