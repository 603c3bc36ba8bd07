import type pg from 'pg';
import type { FieldCondition, Filter, QueryOptions, QueryResult, ReadStore, ReadStoreTx, Scalar } from '../ports/read-store.ts';
import { Mutex } from '../internal/async.ts';
import { assertSchemaName, ensureSchema, inTransaction, openPool } from './postgres-connection.ts';

export interface PostgresReadStoreOptions {
  /** `postgres://user@host:port/database`. */
  connectionString: string;
  /** The context's schema (e.g. `renopath_estates`); its tables are created when missing. */
  schema: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

/**
 * Indexes: the primary key (collection, id) serves `get`, `put` and the scan of one collection.
 * Equality and `$in` filters compile to JSONB containment (`doc @> '{"owner":{"city":"Gent"}}'`),
 * which the GIN index (jsonb_path_ops: smaller and faster than the default opclass, and containment
 * is all we ask of it) answers for any top-level or dotted field without knowing the fields in
 * advance. Ranges and sorts read `doc #> path`, which only a per-field expression index could serve;
 * the port does not name its hot fields, and collections of one context are small enough to filter
 * after the key lookup, so none is created here.
 */
const ddl = (s: string) => `
CREATE TABLE IF NOT EXISTS "${s}".documents (
  collection TEXT  NOT NULL,
  id         TEXT  NOT NULL,
  doc        JSONB NOT NULL,
  PRIMARY KEY (collection, id)
);
CREATE INDEX IF NOT EXISTS documents_doc_gin ON "${s}".documents USING GIN (doc jsonb_path_ops);
CREATE TABLE IF NOT EXISTS "${s}".checkpoints (
  projection TEXT PRIMARY KEY,
  position   BIGINT NOT NULL
);
`;

type SqlValue = string | number | null;

class Params {
  readonly values: SqlValue[] = [];
  add(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function pathOf(field: string): string[] {
  const segments = field.split('.');
  if (segments.some((s) => s === '')) throw new TypeError(`invalid field name: ${field}`);
  return segments;
}

/** `{a: {b: value}}` for field `a.b`: the document shape that containment matches. */
function nested(field: string, value: Scalar): unknown {
  return pathOf(field).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** The field's JSONB value (SQL NULL when missing). */
function valueAt(field: string, params: Params): string {
  return `(doc #> ${params.add(
    `{${pathOf(field)
      .map((s) => `"${s.replace(/["\\]/g, '\\$&')}"`)
      .join(',')}}`,
  )}::text[])`;
}

// Containment compares like MongoDB equality: by JSON type (true is not 1) and numbers by value.
function equals(field: string, value: Scalar, params: Params): string {
  if (field === '_id') return value === null ? 'false' : `id = ${params.add(String(value))}`;
  if (value === null) {
    const v = valueAt(field, params);
    return `(${v} IS NULL OR ${v} = 'null'::jsonb)`;
  }
  return `doc @> ${params.add(JSON.stringify(nested(field, value)))}::jsonb`;
}

const RANGE = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

// Like MongoDB, a range only matches values of the bound's own type; strings compare byte-wise (C).
function range(field: string, operator: keyof typeof RANGE, bound: Scalar, params: Params): string {
  if (typeof bound !== 'number' && typeof bound !== 'string') {
    throw new TypeError(`${operator} on ${field} needs a number or a string`);
  }
  const op = RANGE[operator];
  if (field === '_id') {
    return typeof bound === 'string' ? `id COLLATE "C" ${op} ${params.add(bound)}` : 'false';
  }
  const v = valueAt(field, params);
  // CASE, not AND: only CASE promises not to cast a value of another type (AND may run either side first).
  if (typeof bound === 'number') {
    return `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric ${op} ${params.add(String(bound))}::numeric ELSE false END)`;
  }
  return `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN (${v} #>> '{}') COLLATE "C" ${op} ${params.add(bound)} ELSE false END)`;
}

function condition(field: string, cond: FieldCondition, params: Params): string[] {
  if (cond === null || typeof cond !== 'object') return [equals(field, cond, params)];
  const parts: string[] = [];
  for (const [operator, operand] of Object.entries(cond)) {
    if (operator === '$in') {
      const values = operand as Scalar[];
      parts.push(values.length === 0 ? 'false' : `(${values.map((v) => equals(field, v, params)).join(' OR ')})`);
    } else if (operator === '$ne') {
      parts.push(`NOT (${equals(field, operand as Scalar, params)})`);
    } else if (operator in RANGE) {
      if (operand !== undefined) parts.push(range(field, operator as keyof typeof RANGE, operand as Scalar, params));
    } else {
      throw new TypeError(`unsupported operator ${operator} on ${field}`);
    }
  }
  return parts;
}

function compileWhere(collection: string, filter: Filter | undefined, params: Params): string {
  const parts = [`collection = ${params.add(collection)}`];
  for (const [field, cond] of Object.entries(filter ?? {})) parts.push(...condition(field, cond, params));
  return parts.join(' AND ');
}

/**
 * Values of mixed types sort as MongoDB does (missing and null, then numbers, strings, objects,
 * arrays, booleans), numbers by value and strings byte-wise, as SQLite and MongoDB compare them.
 */
function compileOrder(sort: QueryOptions['sort'], params: Params): string {
  const terms = (sort ?? []).flatMap(({ field, order }) => {
    if (order !== 'ASC' && order !== 'DESC') throw new TypeError(`invalid sort order ${String(order)}`);
    if (field === '_id') return [`id COLLATE "C" ${order}`];
    const v = valueAt(field, params);
    return [
      `CASE jsonb_typeof(${v}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END ${order}`,
      `CASE jsonb_typeof(${v}) WHEN 'number' THEN (${v})::numeric END ${order}`,
      `CASE jsonb_typeof(${v}) WHEN 'string' THEN (${v} #>> '{}') END COLLATE "C" ${order}`,
      `CASE WHEN jsonb_typeof(${v}) IN ('object', 'array', 'boolean') THEN ${v} END ${order}`,
    ];
  });
  // The id breaks ties, so pages never overlap or skip a document.
  return [...terms, 'id COLLATE "C" ASC'].join(', ');
}

function pageWindow(options: QueryOptions): { limit: number | null; offset: number } {
  if (options.pageSize === undefined) return { limit: null, offset: 0 };
  const page = options.page ?? 1;
  if (!Number.isInteger(page) || page < 1) throw new TypeError(`invalid page ${page}`);
  if (!Number.isInteger(options.pageSize) || options.pageSize < 1) throw new TypeError(`invalid page size ${options.pageSize}`);
  return { limit: options.pageSize, offset: (page - 1) * options.pageSize };
}

type Queryable = pg.Pool | pg.PoolClient;
const docKey = (collection: string, id: string) => `${collection}\u0000${id}`;

/** JSONB read-model store, one schema per context. */
export class PostgresReadStore implements ReadStore {
  private readonly documents: string;
  private readonly checkpoints: string;
  /** Transactions of this process queue here instead of each holding a connection while it waits for the lock. */
  private readonly mutex = new Mutex();
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {
    this.documents = `"${schema}".documents`;
    this.checkpoints = `"${schema}".checkpoints`;
  }

  static async open(options: PostgresReadStoreOptions): Promise<PostgresReadStore> {
    assertSchemaName(options.schema);
    const pool = openPool(options.connectionString, options.maxConnections ?? 10);
    try {
      await ensureSchema(pool, options.schema, ddl(options.schema));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresReadStore(pool, options.schema);
  }

  async get<T extends object>(collection: string, id: string): Promise<T | null> {
    this.assertOpen();
    return this.getOn<T>(this.pool, collection, id);
  }

  async query<T extends object>(collection: string, options: QueryOptions = {}): Promise<QueryResult<T>> {
    this.assertOpen();
    return this.queryOn<T>(this.pool, collection, options);
  }

  async loadCheckpoint(projection: string): Promise<bigint> {
    this.assertOpen();
    const { rows } = await this.pool.query<{ position: string }>(`SELECT position FROM ${this.checkpoints} WHERE projection = $1`, [
      projection,
    ]);
    return rows[0] ? BigInt(rows[0].position) : 0n;
  }

  /**
   * Transactions of one schema run one after the other, across processes too (an advisory lock, as
   * SQLite's write lock does): a projection reads a document and writes it back, and two interleaved
   * READ COMMITTED transactions would lose one of the updates.
   *
   * Writes are kept in the transaction and sent in one statement before a query and at commit: a
   * rebuild writes the same documents over and over, and each write would otherwise be a round trip
   * to the server. `get` sees them from memory, `query` after they are sent. A write the server
   * refuses (a string holding \u0000, which JSONB cannot store) therefore fails the commit, not the `put`.
   * They do not nest: inside one, use the `tx` it hands you (a nested call would wait forever).
   */
  async transaction<R>(fn: (tx: ReadStoreTx) => Promise<R>): Promise<R> {
    this.assertOpen();
    return this.mutex.run(async () => {
      this.assertOpen();
      return inTransaction(
        this.pool,
        async (client) => {
          let active = true;
          /** Document key -> JSON text, or null for a delete; serialised at `put`, as SQLite's adapter does. */
          const writes = new Map<string, { collection: string; id: string; json: string | null }>();
          const checkpoints = new Map<string, bigint>();
          const flush = () => this.flush(client, writes, checkpoints);
          const guard =
            <A extends unknown[], V>(op: (...args: A) => Promise<V>) =>
            async (...args: A): Promise<V> => {
              if (!active) throw new Error('read store transaction already finished');
              return op(...args);
            };
          const tx: ReadStoreTx = {
            get: guard(async (collection: string, id: string) => {
              const pending = writes.get(docKey(collection, id));
              if (pending) return pending.json === null ? null : JSON.parse(pending.json);
              return this.getOn(client, collection, id);
            }) as ReadStoreTx['get'],
            query: guard(async (collection: string, options?: QueryOptions) => {
              await flush();
              return this.queryOn(client, collection, options ?? {});
            }) as ReadStoreTx['query'],
            put: guard(async (collection: string, id: string, doc: object) => {
              writes.set(docKey(collection, id), { collection, id, json: JSON.stringify(doc) });
            }),
            delete: guard(async (collection: string, id: string) => {
              writes.set(docKey(collection, id), { collection, id, json: null });
            }),
            saveCheckpoint: guard(async (projection: string, position: bigint) => {
              checkpoints.set(projection, position);
            }),
          };
          try {
            const result = await fn(tx);
            await flush();
            return result;
          } finally {
            active = false;
          }
        },
        `renopath-read:${this.schema}`,
      );
    });
  }

  /**
   * Sends the kept writes as one statement. Its parts cannot see each other's rows, and need not:
   * the map holds one write per document, so no document is both deleted and written.
   */
  private async flush(
    client: pg.PoolClient,
    writes: Map<string, { collection: string; id: string; json: string | null }>,
    checkpoints: Map<string, bigint>,
  ): Promise<void> {
    if (writes.size === 0 && checkpoints.size === 0) return;
    const puts = [...writes.values()].filter((w) => w.json !== null);
    const deletes = [...writes.values()].filter((w) => w.json === null);
    const saved = [...checkpoints];
    writes.clear();
    checkpoints.clear();
    await client.query(
      `WITH deleted AS (
         DELETE FROM ${this.documents} d USING unnest($1::text[], $2::text[]) AS x(collection, id)
         WHERE d.collection = x.collection AND d.id = x.id
       ), written AS (
         INSERT INTO ${this.documents} (collection, id, doc)
         SELECT * FROM unnest($3::text[], $4::text[], $5::jsonb[])
         ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc
       ), checkpointed AS (
         INSERT INTO ${this.checkpoints} (projection, position)
         SELECT * FROM unnest($6::text[], $7::bigint[])
         ON CONFLICT (projection) DO UPDATE SET position = excluded.position
       )
       SELECT 1`,
      [
        deletes.map((w) => w.collection),
        deletes.map((w) => w.id),
        puts.map((w) => w.collection),
        puts.map((w) => w.id),
        puts.map((w) => w.json),
        saved.map(([projection]) => projection),
        saved.map(([, position]) => position.toString()),
      ],
    );
  }

  async reset(projection: string, collections: string[]): Promise<void> {
    this.assertOpen();
    await this.mutex.run(() =>
      inTransaction(
        this.pool,
        async (client) => {
          await client.query(`DELETE FROM ${this.documents} WHERE collection = ANY($1::text[])`, [collections]);
          await client.query(`DELETE FROM ${this.checkpoints} WHERE projection = $1`, [projection]);
        },
        `renopath-read:${this.schema}`,
      ),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Waits for a running transaction to finish before ending the pool under it.
    await this.mutex.run(async () => {
      this.closed = true;
      await this.pool.end();
    });
  }

  private async getOn<T>(client: Queryable, collection: string, id: string): Promise<T | null> {
    const { rows } = await client.query<{ doc: T }>(`SELECT doc FROM ${this.documents} WHERE collection = $1 AND id = $2`, [
      collection,
      id,
    ]);
    return rows[0]?.doc ?? null;
  }

  private async queryOn<T>(client: Queryable, collection: string, options: QueryOptions): Promise<QueryResult<T>> {
    const params = new Params();
    const where = compileWhere(collection, options.filter, params);
    // The count reuses the WHERE clause: it must bind exactly the parameters that clause numbers.
    const whereParams = [...params.values];
    const order = compileOrder(options.sort, params);
    const { limit, offset } = pageWindow(options);
    const sql = `SELECT doc FROM ${this.documents} WHERE ${where} ORDER BY ${order} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`;
    const { rows } = await client.query<{ doc: T }>(sql, params.values);
    // Unpaged, the rows are every match: counting them again would be a second scan.
    const total =
      options.pageSize === undefined
        ? rows.length
        : Number(
            (await client.query<{ total: string }>(`SELECT count(*) AS total FROM ${this.documents} WHERE ${where}`, whereParams)).rows[0]
              ?.total ?? 0,
          );
    return { items: rows.map((r) => r.doc), total };
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('read store is closed');
  }
}

export function openPostgresReadStore(options: PostgresReadStoreOptions): Promise<PostgresReadStore> {
  return PostgresReadStore.open(options);
}
