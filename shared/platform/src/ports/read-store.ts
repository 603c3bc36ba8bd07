/**
 * Read-model store port: JSON documents by collection, shaped so a MongoDB adapter fits
 * (collection + `_id`, equality/`$in`/range filters, sort, skip/limit paging).
 */

export type Scalar = string | number | boolean | null;

/** A filter on top-level or dotted fields: equality, `$in`, `$ne`, ranges. All conditions AND. */
export type FieldCondition = Scalar | { $in: Scalar[] } | { $ne: Scalar } | { $gt?: Scalar; $gte?: Scalar; $lt?: Scalar; $lte?: Scalar };
export type Filter = Record<string, FieldCondition>;

export interface QueryOptions {
  filter?: Filter;
  sort?: Array<{ field: string; order: 'ASC' | 'DESC' }>;
  /** 1-based page. With `pageSize`; without both, everything that matches. */
  page?: number;
  pageSize?: number;
}

export interface QueryResult<T> {
  items: T[];
  /** Number of matching documents, all pages together. */
  total: number;
}

/** Operations inside one read-store transaction. */
export interface ReadStoreTx {
  get<T extends object>(collection: string, id: string): Promise<T | null>;
  put<T extends object>(collection: string, id: string, doc: T): Promise<void>;
  delete(collection: string, id: string): Promise<void>;
  query<T extends object>(collection: string, options?: QueryOptions): Promise<QueryResult<T>>;
  /** Stored in the same transaction as the document changes, so a crash never splits them. */
  saveCheckpoint(projection: string, position: bigint): Promise<void>;
}

export interface ReadStore {
  get<T extends object>(collection: string, id: string): Promise<T | null>;
  /**
   * Optional: the committed document for reading only, deeply frozen and possibly the very object
   * other callers get (so it costs no parse per read). Adapters without it are read through `get`
   * (see `readShared`); a caller that means to change a document uses `get`.
   */
  getShared?<T extends object>(collection: string, id: string): Promise<Readonly<T> | null>;
  query<T extends object>(collection: string, options?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs `fn` atomically: all its writes and its checkpoint commit together, or none does. */
  transaction<R>(fn: (tx: ReadStoreTx) => Promise<R>): Promise<R>;
  /** Last position a projection committed (0n when it never ran). */
  loadCheckpoint(projection: string): Promise<bigint>;
  /** Drops a projection's collections and checkpoint, for a rebuild from the event log. */
  reset(projection: string, collections: string[]): Promise<void>;
  close(): Promise<void>;
}
