import pg from 'pg';
import { EventIdConflictError, WrongExpectedRevisionError } from '../ports/event-store.ts';
import type * as port from '../ports/event-store.ts';
import { Signal } from '../internal/async.ts';
import { repeatedAppend, revisionMatches } from '../internal/append-rules.ts';
import { assertSchemaName, ensureSchema, inTransaction, openPool } from './postgres-connection.ts';
import { PollingSubscription } from '../internal/polling-subscription.ts';

export interface PostgresEventStoreOptions {
  /** `postgres://user@host:port/database`. */
  connectionString: string;
  /** The context's schema (e.g. `renopath_estates`); its tables are created when missing. */
  schema: string;
  /** How often an idle subscription looks for appends when no notification arrived (ms). */
  pollIntervalMs?: number;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

const checkpointDdl = (s: string) => `
CREATE TABLE IF NOT EXISTS "${s}".consumer_checkpoints (
  consumer TEXT PRIMARY KEY,
  position BIGINT NOT NULL
);`;

const eventDdl = (s: string) => `
CREATE TABLE IF NOT EXISTS "${s}".events (
  position    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id    TEXT   NOT NULL UNIQUE,
  stream      TEXT   NOT NULL,
  revision    BIGINT NOT NULL,
  type        TEXT   NOT NULL,
  data        JSONB  NOT NULL,
  metadata    JSONB  NOT NULL,
  occurred_at TEXT   NOT NULL,
  UNIQUE (stream, revision)
);
CREATE TABLE IF NOT EXISTS "${s}".idempotent_appends (
  idempotency_key TEXT   NOT NULL,
  stream          TEXT   NOT NULL,
  next_revision   BIGINT NOT NULL,
  position        BIGINT NOT NULL,
  PRIMARY KEY (idempotency_key, stream)
);
${checkpointDdl(s)}`;

interface EventRow {
  position: string;
  event_id: string;
  stream: string;
  revision: string;
  type: string;
  data: Record<string, unknown>;
  metadata: port.RecordedEvent['metadata'];
  occurred_at: string;
}

interface StoredId {
  event_id: string;
  stream: string;
  revision: string;
  position: string;
}

const COLUMNS = 'position, event_id, stream, revision, type, data, metadata, occurred_at';
const READ_BATCH = 256;

function toRecorded(row: EventRow): port.RecordedEvent {
  return {
    event_id: row.event_id,
    type: row.type,
    stream: row.stream,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    occurred_at: row.occurred_at,
    data: row.data,
    metadata: row.metadata,
  };
}

/**
 * Event store on PostgreSQL, one schema per context.
 *
 * Gap-free global order: every append takes a transaction-level advisory lock of its schema before
 * it draws positions from the identity sequence, and holds it until COMMIT. So the transaction that
 * holds position N is committed (and visible: PostgreSQL releases locks after the commit is
 * visible) before any other append can draw N+1, and a reader that has seen N+1 can never later see
 * N appear behind it. The alternative, reading only below the oldest in-flight transaction
 * (xid8 / pg_snapshot_xmin), lets appends run in parallel but delays every reader by the slowest
 * writer of the whole schema and needs a second column to gate on; appends of one context are short
 * and the lock serialises only them (reads never take it), so the simpler rule wins here. Positions
 * may skip numbers (a sequence value is not returned when its transaction fails), which a reader
 * never waits for; what it must never do is skip an event, and it cannot.
 */
export class PostgresEventStore implements port.EventStore {
  readonly checkpoints: PostgresCheckpointStore;
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly table: string;
  private readonly pollIntervalMs: number;
  private readonly appended = new Signal();
  /** Bumped on every wake-up, so a subscription notices one that arrived while it was querying. */
  private wakeups = 0;
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private readonly subscriptions = new Set<PollingSubscription<port.RecordedEvent>>();
  private closed = false;

  private constructor(
    private readonly options: PostgresEventStoreOptions,
    pool: pg.Pool,
  ) {
    this.pool = pool;
    this.schema = options.schema;
    this.table = `"${options.schema}".events`;
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.checkpoints = new PostgresCheckpointStore(pool, options.schema, false);
  }

  static async open(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    assertSchemaName(options.schema);
    const pool = openPool(options.connectionString, options.maxConnections ?? 10);
    try {
      await ensureSchema(pool, options.schema, eventDdl(options.schema));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresEventStore(options, pool);
  }

  // The result's type is the port's (\`implements\` checks it).
  async append(stream: string, events: port.NewEvent[], expected: port.ExpectedRevision, options: port.AppendOptions = {}) {
    this.assertOpen();
    const ids = events.map((e) => e.event_id);
    if (new Set(ids).size !== ids.length) {
      throw new EventIdConflictError(stream, ids, 'the same event id appears twice in one append');
    }
    const key = options.idempotencyKey ?? null;
    // Four round trips: BEGIN with the lock, the checks, the insert, COMMIT. The checks must be a
    // statement of their own after the lock: a statement reads the snapshot taken when it began,
    // which would miss the append it waited for.
    const outcome = await inTransaction(
      this.pool,
      async (client) => {
        const { rows } = await client.query<{
          revision: string | null;
          stored: StoredId[];
          keyed: { next_revision: string; position: string } | null;
        }>(
          `SELECT (SELECT max(revision) FROM ${this.table} WHERE stream = $1)::text AS revision,
                  (SELECT coalesce(json_agg(json_build_object('event_id', event_id, 'stream', stream, 'revision', revision::text, 'position', position::text)), '[]')
                     FROM ${this.table} WHERE event_id = ANY($2::text[])) AS stored,
                  (SELECT json_build_object('next_revision', next_revision::text, 'position', position::text)
                     FROM "${this.schema}".idempotent_appends WHERE idempotency_key = $3 AND stream = $1) AS keyed`,
          [stream, ids, key],
        );
        const row = rows[0]!;
        // Looked up under the lock: of two racing appends under one key, the second sees the first.
        if (row.keyed)
          return { result: { next_revision: BigInt(row.keyed.next_revision), position: BigInt(row.keyed.position) }, wrote: false };
        const result = await this.appendLocked(
          client,
          stream,
          events,
          expected,
          row.revision === null ? null : BigInt(row.revision),
          row.stored,
          key,
        );
        return result;
      },
      `renopath-append:${this.schema}`,
    );
    if (outcome.wrote) this.wake();
    return outcome.result;
  }

  private async appendLocked(
    client: pg.PoolClient,
    stream: string,
    events: port.NewEvent[],
    expected: port.ExpectedRevision,
    current: bigint | null,
    stored: StoredId[],
    key: string | null,
  ): Promise<{ result: port.AppendResult; wrote: boolean }> {
    const ids = events.map((e) => e.event_id);
    if (stored.length > 0) {
      const result = repeatedAppend(
        stream,
        ids,
        expected,
        stored.map((r) => ({ event_id: r.event_id, stream: r.stream, revision: BigInt(r.revision), position: BigInt(r.position) })),
        'increasing',
      );
      if (key !== null) await this.recordKey(client, key, stream, result);
      return { result, wrote: false };
    }
    if (!revisionMatches(expected, current)) throw new WrongExpectedRevisionError(stream, expected, current);
    if (events.length === 0) {
      const result = { next_revision: current ?? -1n, position: await this.head(client) };
      if (key !== null) await this.recordKey(client, key, stream, result);
      return { result, wrote: false };
    }
    // One statement for the batch, the key and the notification. Rows are inserted (and draw their
    // positions) in ordinality order; the notification reaches listeners at COMMIT, never for a
    // rolled-back append.
    const { rows } = await client.query<{ revision: string; position: string }>(
      `WITH inserted AS (
         INSERT INTO ${this.table} (event_id, stream, revision, type, data, metadata, occurred_at)
         SELECT e.event_id, $1, $2::bigint + e.ord, e.type, e.data, e.metadata, e.occurred_at
         FROM unnest($3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::text[])
              WITH ORDINALITY AS e(event_id, type, data, metadata, occurred_at, ord)
         ORDER BY e.ord
         RETURNING position, revision
       ), last AS (
         SELECT max(revision) AS revision, max(position) AS position FROM inserted
       ), keyed AS (
         INSERT INTO "${this.schema}".idempotent_appends (idempotency_key, stream, next_revision, position)
         SELECT $8, $1, revision, position FROM last WHERE $8::text IS NOT NULL
       )
       SELECT revision::text, position::text, pg_notify($9, '') FROM last`,
      [
        stream,
        (current ?? -1n).toString(),
        ids,
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
        events.map((e) => e.occurred_at),
        key,
        this.schema,
      ],
    );
    const last = rows[0]!;
    return { result: { next_revision: BigInt(last.revision), position: BigInt(last.position) }, wrote: true };
  }

  private async recordKey(client: pg.PoolClient, key: string, stream: string, result: port.AppendResult): Promise<void> {
    await client.query(
      `INSERT INTO "${this.schema}".idempotent_appends (idempotency_key, stream, next_revision, position) VALUES ($1, $2, $3, $4)`,
      [key, stream, result.next_revision.toString(), result.position.toString()],
    );
  }

  private async keyed(client: pg.Pool | pg.PoolClient, stream: string, key: string): Promise<port.AppendResult | null> {
    const { rows } = await client.query<{ next_revision: string; position: string }>(
      `SELECT next_revision, position FROM "${this.schema}".idempotent_appends WHERE idempotency_key = $1 AND stream = $2`,
      [key, stream],
    );
    const row = rows[0];
    return row ? { next_revision: BigInt(row.next_revision), position: BigInt(row.position) } : null;
  }

  async appendedUnder(stream: string, idempotencyKey: string): Promise<port.AppendResult | null> {
    this.assertOpen();
    return this.keyed(this.pool, stream, idempotencyKey);
  }

  async readStream(stream: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    this.assertOpen();
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE stream = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
      [stream, (options.fromRevision ?? 0n).toString(), options.maxCount ?? null],
    );
    return rows.map(toRecorded);
  }

  async readAll(options: port.ReadAllOptions = {}): Promise<port.RecordedEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after ?? 0n, options.maxCount ?? null);
  }

  private async readAfter(after: bigint, maxCount: number | null): Promise<port.RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE position > $1 ORDER BY position LIMIT $2`,
      [after.toString(), maxCount],
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return this.head(this.pool);
  }

  private async head(client: pg.Pool | pg.PoolClient): Promise<bigint> {
    const { rows } = await client.query<{ head: string | null }>(`SELECT max(position) AS head FROM ${this.table}`);
    return rows[0]?.head == null ? 0n : BigInt(rows[0].head);
  }

  subscribeToAll(options: port.SubscribeOptions = {}): port.Subscription {
    this.assertOpen();
    void this.listen();
    const subscription: PollingSubscription<port.RecordedEvent> = new PollingSubscription(
      {
        readAfter: (after) => this.readAfter(after, READ_BATCH),
        toEvent: (event) => event,
        wakeups: () => this.wakeups,
        wait: async (abort) => {
          // A listener lost with its connection is reopened here; until then the poll carries on.
          void this.listen();
          await this.appended.wait(this.pollIntervalMs, abort);
        },
      },
      options,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  private wake(): void {
    this.wakeups++;
    this.appended.notify();
  }

  /** One LISTEN connection per store, opened with its first subscription: appends by any process wake it. */
  private listen(): Promise<void> {
    if (this.closed || this.listening) return this.listening ?? Promise.resolve();
    const client = new pg.Client({ connectionString: this.options.connectionString });
    const lost = () => {
      if (this.listener === client) this.listener = undefined;
      this.listening = undefined;
      void client.end().catch(() => undefined);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.wake());
    this.listening = (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN "${this.schema}"`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.listener = client;
        // Appends made while the listener was away were not announced.
        this.wake();
      } catch {
        lost();
      }
    })();
    return this.listening;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.listening?.catch(() => undefined);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/** Consumer checkpoints in the context's schema (e.g. for the bus relay). */
export class PostgresCheckpointStore implements port.CheckpointStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    private readonly ownsPool: boolean,
  ) {}

  async load(consumer: string): Promise<bigint> {
    const { rows } = await this.pool.query<{ position: string }>(
      `SELECT position FROM "${this.schema}".consumer_checkpoints WHERE consumer = $1`,
      [consumer],
    );
    return rows[0] ? BigInt(rows[0].position) : 0n;
  }

  async save(consumer: string, position: bigint): Promise<void> {
    await this.pool.query(
      `INSERT INTO "${this.schema}".consumer_checkpoints (consumer, position) VALUES ($1, $2)
       ON CONFLICT (consumer) DO UPDATE SET position = excluded.position`,
      [consumer, position.toString()],
    );
  }

  /** Ends the pool if this store opened it; the event store's own `checkpoints` close with it. */
  async close(): Promise<void> {
    if (this.ownsPool && !this.pool.ended) await this.pool.end();
  }
}

/** Checkpoints on their own pool, in the schema of the context's event store. */
export async function openPostgresCheckpointStore(options: { connectionString: string; schema: string }): Promise<PostgresCheckpointStore> {
  assertSchemaName(options.schema);
  const pool = openPool(options.connectionString, 2);
  try {
    await ensureSchema(pool, options.schema, checkpointDdl(options.schema));
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresCheckpointStore(pool, options.schema, true);
}

export function openPostgresEventStore(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
  return PostgresEventStore.open(options);
}
