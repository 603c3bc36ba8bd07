import {
  MongoBulkWriteError,
  MongoClient,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import type { QueryOptions, QueryResult, ReadStore, ReadStoreTx } from '../ports/read-store.ts';
import { Mutex } from '../internal/async.ts';
import {
  compareRecords,
  DOC,
  indexablePaths,
  matchesMongo,
  pageWindow,
  toMongoFilter,
  toMongoSort,
  type MongoSort,
  type PageWindow,
  type StoredRecord,
} from './mongo-filter.ts';
import { assertDatabaseName, assertPrefix, checkpointsCollection, databaseFromUrl, documentsCollection } from './mongo-names.ts';

/**
 * How a commit keeps documents and checkpoint together:
 * - `transactions`: one multi-document transaction (a replica set or a sharded cluster);
 * - `guarded`: no transaction (a standalone server): each document carries the position of the
 *   commit that wrote it and only a later position overwrites it, the checkpoint is written last.
 * `auto` (the default) asks the server (`hello`) and takes `transactions` where it can.
 */
export type MongoCommitMode = 'transactions' | 'guarded';

export interface MongoReadStoreOptions {
  /** `mongodb://host:port/...` or `mongodb+srv://...`. */
  url: string;
  /** Default: the database in the URL's path, else `renopath`. */
  database?: string;
  /** The context's collection prefix (e.g. `renopath_estates`): contexts sharing a database never meet. */
  prefix: string;
  /** `transactions` refuses to open on a server without them; `guarded` never uses them. */
  mode?: 'auto' | MongoCommitMode;
}

/** What a read-model collection holds (mongo-filter.ts). */
interface StoredDocument {
  _id: string;
  doc: object;
  /** The position of the commit that wrote it, when that commit saved a checkpoint. */
  pos?: bigint;
}

interface StoredCheckpoint {
  _id: string;
  position: bigint;
  /** Set while a reset is under way: the collections it drops. */
  resetting?: string[];
}

interface Kept {
  collection: string;
  id: string;
  /** JSON text (serialised at `put`, so later changes to the caller's object change nothing), or null for a delete. */
  json: string | null;
}

const MAX_POSITION = 2n ** 63n - 1n;
const DUPLICATE_KEY = 11000;
/** MongoDB allows 64 indexes per collection; leave room for the id's and an operator's own. */
const MAX_FIELD_INDEXES = 32;

const docKey = (collection: string, id: string) => `${collection}\u0000${id}`;

function assertId(id: string): void {
  if (typeof id !== 'string') throw new TypeError(`document id must be a string, got ${typeof id}`);
}

function assertPosition(position: bigint): void {
  if (typeof position !== 'bigint' || position < 0n || position > MAX_POSITION) {
    throw new RangeError(`checkpoint position must be a bigint from 0 to 2^63-1, got ${String(position)}`);
  }
}

/** Positions are stored as Int64 and read back with `useBigInt64`; a number only appears if someone else wrote it. */
function positionOf(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new Error(`stored checkpoint position is not an integer: ${String(value)}`);
}

/** Every write error of an unordered bulk write is a guard refusing an older position (the upsert collides with the newer document). */
function onlyRefusals(error: unknown): boolean {
  // The driver reports write errors ahead of a write-concern error of the same batch: check the result for one.
  if (!(error instanceof MongoBulkWriteError) || error.err || error.result?.getWriteConcernError()) return false;
  const errors = [error.writeErrors].flat();
  return errors.length > 0 && errors.every((e) => e.code === DUPLICATE_KEY);
}

async function transactionsSupported(client: MongoClient): Promise<boolean> {
  const admin = client.db('admin');
  // `hello` arrived in 4.4.2/5.0; older servers answer the same fields to `isMaster`.
  const hello = await admin.command({ hello: 1 }).catch(() => admin.command({ isMaster: 1 }));
  const sessions = hello.logicalSessionTimeoutMinutes !== undefined && hello.logicalSessionTimeoutMinutes !== null;
  return sessions && (typeof hello.setName === 'string' || hello.msg === 'isdbgrid');
}

/**
 * Read models as MongoDB documents: collection `<prefix>.rm.<collection>` holds `{ _id, doc, pos }`,
 * `<prefix>.checkpoints` holds `{ _id: projection, position: Int64 }`.
 *
 * A transaction keeps its writes in memory until `fn` returns (its own `get` and `query` see them), so
 * nothing reaches the server when `fn` throws, in either mode; the commit then sends them. Transactions
 * of one store run one after the other (a projection reads a document and writes it back); two
 * processes writing the same context are not serialised against each other.
 */
export class MongoReadStore implements ReadStore {
  private readonly mutex = new Mutex();
  private readonly checkpoints: Collection<StoredCheckpoint>;
  /** Index builds by collection, then path: started once each, awaited by every query that wants them. */
  private readonly indexes = new Map<string, Map<string, Promise<void>>>();
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly prefix: string,
    /** How this store commits; fixed at open. */
    readonly mode: MongoCommitMode,
  ) {
    this.checkpoints = db.collection(checkpointsCollection(prefix));
  }

  static async open(options: MongoReadStoreOptions): Promise<MongoReadStore> {
    const prefix = assertPrefix(options.prefix);
    const database = assertDatabaseName(options.database ?? databaseFromUrl(options.url) ?? 'renopath');
    const wanted = options.mode ?? 'auto';
    if (!['auto', 'transactions', 'guarded'].includes(wanted)) throw new TypeError(`invalid MongoDB read-store mode ${String(wanted)}`);
    const client = new MongoClient(options.url);
    try {
      await client.connect();
      let mode: MongoCommitMode = 'guarded';
      if (wanted !== 'guarded') {
        const supported = await transactionsSupported(client);
        if (wanted === 'transactions' && !supported) {
          throw new Error('MongoDB read store: mode "transactions" needs a replica set or a sharded cluster; this server is standalone');
        }
        if (supported) mode = 'transactions';
      }
      return new MongoReadStore(client, client.db(database), prefix, mode);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  private documents(collection: string): Collection<StoredDocument> {
    return this.db.collection(documentsCollection(this.db.databaseName, this.prefix, collection));
  }

  async get<T extends object>(collection: string, id: string): Promise<T | null> {
    this.assertOpen();
    assertId(id);
    const row = await this.documents(collection).findOne({ _id: id }, { projection: { [DOC]: 1 } });
    return (row?.[DOC] as T | undefined) ?? null;
  }

  async query<T extends object>(collection: string, options: QueryOptions = {}): Promise<QueryResult<T>> {
    this.assertOpen();
    return this.queryKept<T>(collection, options, []);
  }

  async loadCheckpoint(projection: string): Promise<bigint> {
    this.assertOpen();
    const row = await this.checkpoints.findOne({ _id: projection }, { useBigInt64: true });
    if (!row) return 0n;
    if (Array.isArray(row.resetting)) {
      // A reset stopped half-way (see `reset`): finish it before anyone builds on the old documents.
      await this.finishReset(projection, row.resetting as string[]);
      return 0n;
    }
    return positionOf(row.position);
  }

  /** Transactions do not nest: inside one, use the `tx` it hands you (a nested call would wait forever). */
  async transaction<R>(fn: (tx: ReadStoreTx) => Promise<R>): Promise<R> {
    this.assertOpen();
    return this.mutex.run(async () => {
      this.assertOpen();
      const kept = new Map<string, Kept>();
      const checkpoints = new Map<string, bigint>();
      let active = true;
      const guard =
        <A extends unknown[], V>(op: (...args: A) => Promise<V>) =>
        async (...args: A): Promise<V> => {
          if (!active) throw new Error('read store transaction already finished');
          return op(...args);
        };
      const keep = (collection: string, id: string, json: string | null) => {
        this.documents(collection);
        assertId(id);
        kept.set(docKey(collection, id), { collection, id, json });
      };
      const tx: ReadStoreTx = {
        get: guard(async (collection: string, id: string) => {
          assertId(id);
          const write = kept.get(docKey(collection, id));
          if (write) return write.json === null ? null : JSON.parse(write.json);
          return this.get(collection, id);
        }) as ReadStoreTx['get'],
        query: guard(async (collection: string, options?: QueryOptions) => {
          const mine = [...kept.values()].filter((w) => w.collection === collection);
          return this.queryKept(collection, options ?? {}, mine);
        }) as ReadStoreTx['query'],
        put: guard(async (collection: string, id: string, doc: object) => {
          const json = doc !== null && typeof doc === 'object' ? JSON.stringify(doc) : undefined;
          if (json === undefined) throw new TypeError(`document ${collection}/${id} must be a JSON object`);
          keep(collection, id, json);
        }),
        delete: guard(async (collection: string, id: string) => keep(collection, id, null)),
        saveCheckpoint: guard(async (projection: string, position: bigint) => {
          assertPosition(position);
          checkpoints.set(projection, position);
        }),
      };
      try {
        const result = await fn(tx);
        active = false;
        await this.commit([...kept.values()], checkpoints);
        return result;
      } finally {
        active = false;
      }
    });
  }

  /**
   * Sends a transaction's writes. With a checkpoint, each written document records the (highest)
   * position of the commit as `pos`; without one (a reactor's write, not a projection's) it has none,
   * and any later guarded write may overwrite it.
   *
   * `transactions`: documents and checkpoints in one server transaction; readers see all of it or none.
   * `withTransaction` retries the whole callback on a transient error (a write conflict with another
   * process), which only resends the same writes.
   *
   * `guarded`: documents first, then checkpoints, as separate writes. A reader outside may see, for a
   * moment, some of the commit's documents new and others still old, and the checkpoint behind them;
   * never a checkpoint ahead of its documents. If the process dies in between, the projection resumes
   * from the older checkpoint and replays events already applied: their writes carry a position no
   * higher than the one stored by the interrupted commit, and the guard (`pos` not >= ours) refuses
   * them, so nothing is applied twice. A document the interrupted commit did not reach is still
   * written by the replay.
   */
  private async commit(writes: Kept[], checkpoints: Map<string, bigint>): Promise<void> {
    if (writes.length === 0 && checkpoints.size === 0) return;
    const position = checkpoints.size === 0 ? undefined : [...checkpoints.values()].reduce((a, b) => (b > a ? b : a));
    const guarded = this.mode === 'guarded' && position !== undefined;
    const byCollection = new Map<string, AnyBulkWriteOperation<StoredDocument>[]>();
    for (const write of writes) {
      const name = documentsCollection(this.db.databaseName, this.prefix, write.collection);
      const filter: Document = guarded ? { _id: write.id, pos: { $not: { $gte: position } } } : { _id: write.id };
      const op: AnyBulkWriteOperation<StoredDocument> =
        write.json === null
          ? { deleteOne: { filter } }
          : {
              replaceOne: {
                filter,
                replacement: position === undefined ? { [DOC]: JSON.parse(write.json) } : { [DOC]: JSON.parse(write.json), pos: position },
                upsert: true,
              },
            };
      byCollection.set(name, [...(byCollection.get(name) ?? []), op]);
    }
    const saveCheckpoints = async (session?: ClientSession) => {
      for (const [projection, at] of checkpoints) {
        // A replacement, so it also clears the marker of an interrupted reset.
        await this.checkpoints.replaceOne({ _id: projection }, { position: at }, { upsert: true, session });
      }
    };

    if (this.mode === 'transactions') {
      const session = this.client.startSession();
      try {
        await session.withTransaction(async () => {
          for (const [name, ops] of byCollection) await this.db.collection<StoredDocument>(name).bulkWrite(ops, { session, ordered: true });
          await saveCheckpoints(session);
        });
      } finally {
        await session.endSession();
      }
      return;
    }
    for (const [name, ops] of byCollection) {
      try {
        // Unordered: a refused write must not stop the ones after it.
        await this.db.collection<StoredDocument>(name).bulkWrite(ops, { ordered: !guarded });
      } catch (error) {
        if (!guarded || !onlyRefusals(error)) throw error;
      }
    }
    await saveCheckpoints();
  }

  /**
   * Drops the collections, then the checkpoint. The checkpoint first becomes a marker naming the
   * collections, so a reset cut short (the process dies between the drops) is finished by the next
   * `loadCheckpoint` instead of leaving a projection at position 0 over old documents whose guard
   * positions would refuse the rebuild's writes, or at its old position over emptied collections.
   */
  async reset(projection: string, collections: string[]): Promise<void> {
    this.assertOpen();
    for (const collection of collections) this.documents(collection);
    await this.mutex.run(async () => {
      this.assertOpen();
      await this.checkpoints.replaceOne({ _id: projection }, { position: 0n, resetting: collections }, { upsert: true });
      await this.finishReset(projection, collections);
    });
  }

  private async finishReset(projection: string, collections: string[]): Promise<void> {
    for (const collection of collections) {
      const target = this.documents(collection);
      this.indexes.delete(target.collectionName);
      // Returns false, not an error, for a collection that is not there.
      await target.drop();
    }
    await this.checkpoints.deleteOne({ _id: projection });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Waits for a running transaction to commit before closing the client under it.
    await this.mutex.run(async () => {
      if (this.closed) return;
      this.closed = true;
      await this.client.close();
    });
  }

  /**
   * A query, with a transaction's kept writes to `collection` laid over the committed documents: the
   * server answers for the documents the transaction did not touch, the kept ones are matched and
   * ranked in memory by the same rules, and the two merge. Without kept writes it is one server query.
   */
  private async queryKept<T>(collection: string, options: QueryOptions, kept: Kept[]): Promise<QueryResult<T>> {
    const target = this.documents(collection);
    const filter = toMongoFilter(options.filter);
    const sort = toMongoSort(options.sort);
    const window = pageWindow(options);
    await this.ensureIndexes(target, indexablePaths(options));
    if (kept.length === 0) {
      const rows = await this.find(target, filter, sort, window);
      // Unpaged, the rows are every match: counting them again would be a second scan.
      const total = window.limit === null ? rows.length : await target.countDocuments(filter);
      return { items: rows.map((r) => r.doc as T), total };
    }
    const untouched: Document = { $and: [filter, { _id: { $nin: kept.map((w) => w.id) } }] };
    const committed = await this.find(target, untouched, sort, {
      skip: 0,
      limit: window.limit === null ? null : window.skip + window.limit,
    });
    const mine = kept
      .filter((w): w is Kept & { json: string } => w.json !== null)
      .map((w): StoredRecord => ({ _id: w.id, doc: JSON.parse(w.json) as object }))
      .filter((r) => matchesMongo(r, filter));
    const merged = [...committed, ...mine].sort((a, b) => compareRecords(a, b, sort));
    const items = window.limit === null ? merged : merged.slice(window.skip, window.skip + window.limit);
    const total = window.limit === null ? merged.length : (await target.countDocuments(untouched)) + mine.length;
    return { items: items.map((r) => r.doc as T), total };
  }

  private async find(target: Collection<StoredDocument>, filter: Document, sort: MongoSort, window: PageWindow): Promise<StoredRecord[]> {
    const rows = await target
      .find(filter, {
        projection: { [DOC]: 1 },
        sort,
        ...(window.skip > 0 ? { skip: window.skip } : {}),
        ...(window.limit !== null ? { limit: window.limit } : {}),
      })
      .toArray();
    return rows.map((r) => ({ _id: r._id as unknown as string, doc: (r[DOC] ?? {}) as object }));
  }

  /**
   * A path filtered or sorted on gets an ascending index the first time: the services' queries are few
   * and fixed (by estate, by status, by organization), and without one each scans its collection,
   * which grows with use. A failed build (index limit, no privilege) is not retried and the query still
   * runs: an index changes speed, never results.
   */
  private async ensureIndexes(target: Collection<StoredDocument>, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    let built = this.indexes.get(target.collectionName);
    if (!built) this.indexes.set(target.collectionName, (built = new Map()));
    const pending: Promise<void>[] = [];
    for (const path of paths) {
      let build = built.get(path);
      if (!build) {
        if (built.size >= MAX_FIELD_INDEXES) continue;
        build = target.createIndex({ [path]: 1 }).then(
          () => undefined,
          () => undefined,
        );
        built.set(path, build);
      }
      pending.push(build);
    }
    await Promise.all(pending);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('read store is closed');
  }
}

export function openMongoReadStore(options: MongoReadStoreOptions): Promise<MongoReadStore> {
  return MongoReadStore.open(options);
}
