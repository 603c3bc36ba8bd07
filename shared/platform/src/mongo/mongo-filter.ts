/**
 * The read-store port's queries in MongoDB terms, and the same semantics evaluated in memory (for the
 * writes a transaction keeps until it commits).
 *
 * Stored shape: `{ _id: <the port's id>, doc: <the document>, pos: <guard position> }`. The document
 * sits under `doc` so that any key it has (its own `_id`, `pos`) survives, and filters on field `a.b`
 * read `doc.a.b`; `_id` in a filter or sort means the port's id.
 */
import type { Document } from 'mongodb';
import type { FieldCondition, Filter, QueryOptions, Scalar } from '../ports/read-store.ts';

export const DOC = 'doc';

/** A stored document as the in-memory evaluator sees it. */
export interface StoredRecord {
  _id: string;
  doc: object;
}

export type MongoSort = Array<[string, 1 | -1]>;

/**
 * `_id`, or `doc.<field>`. A segment may not be empty or start with `$` (that would turn a field into
 * an operator the port does not offer), nor hold NUL.
 */
export function fieldPath(field: string): string {
  if (field === '_id') return '_id';
  const segments = typeof field === 'string' ? field.split('.') : [''];
  if (segments.some((s) => s === '' || s.startsWith('$') || s.includes('\0'))) {
    throw new TypeError(`invalid field name: ${JSON.stringify(field)}`);
  }
  return `${DOC}.${field}`;
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function scalar(field: string, operator: string, value: unknown): Scalar {
  if (!isScalar(value)) throw new TypeError(`${operator} on ${field} needs a string, a finite number, a boolean or null`);
  return value;
}

const RANGES = ['$gt', '$gte', '$lt', '$lte'] as const;
type RangeOperator = (typeof RANGES)[number];
const isRange = (operator: string): operator is RangeOperator => (RANGES as readonly string[]).includes(operator);

/**
 * The port's ids are strings: on `_id` a number or boolean matches its text, as in the PostgreSQL
 * adapter, and null matches nothing (every document has an id).
 */
const idValue = (value: Scalar): string | null => (value === null ? null : String(value));

/**
 * One field's condition as a MongoDB operator document, or `undefined` for "no condition" (an empty
 * condition object, or only undefined range bounds): `{ field: {} }` would mean "equals {}" to MongoDB.
 *
 * MongoDB's own semantics are the port's here: null matches null and a missing field, `$ne` matches a
 * missing field, a range only matches values of its bound's type (numbers by value, strings by bytes).
 * One difference from the SQL adapters: equality also matches an array holding the value.
 */
function compileCondition(field: string, cond: FieldCondition): unknown {
  const onId = field === '_id';
  if (cond === null || typeof cond !== 'object') {
    const value = scalar(field, 'equality', cond);
    if (!onId) return value;
    const id = idValue(value);
    return id === null ? { $in: [] } : id;
  }
  if (Array.isArray(cond)) throw new TypeError(`condition on ${field} is an array: use { $in: [...] }`);
  const ops: Document = {};
  for (const [operator, operand] of Object.entries(cond)) {
    if (operator === '$in') {
      if (!Array.isArray(operand)) throw new TypeError(`$in on ${field} needs an array`);
      const values = operand.map((v) => scalar(field, '$in', v));
      ops.$in = onId ? values.map(idValue).filter((v) => v !== null) : values;
    } else if (operator === '$ne') {
      const value = scalar(field, '$ne', operand);
      if (!onId) ops.$ne = value;
      else if (value !== null) ops.$ne = idValue(value);
    } else if (isRange(operator)) {
      if (operand === undefined) continue;
      if (typeof operand !== 'number' && typeof operand !== 'string')
        throw new TypeError(`${operator} on ${field} needs a number or a string`);
      if (typeof operand === 'number' && !Number.isFinite(operand)) throw new TypeError(`${operator} on ${field} needs a finite number`);
      ops[operator] = operand;
    } else {
      throw new TypeError(`unsupported operator ${operator} on ${field}`);
    }
  }
  return Object.keys(ops).length === 0 ? undefined : ops;
}

/** The port's filter as a MongoDB query on the stored shape. */
export function toMongoFilter(filter: Filter | undefined): Document {
  if (filter !== undefined && (filter === null || typeof filter !== 'object' || Array.isArray(filter))) {
    throw new TypeError('filter must be an object of field conditions');
  }
  const query: Document = {};
  for (const [field, cond] of Object.entries(filter ?? {})) {
    const compiled = compileCondition(field, cond);
    if (compiled !== undefined) query[fieldPath(field)] = compiled;
  }
  return query;
}

/** The sort as MongoDB key order; the id breaks ties last, so pages never overlap or skip a document. */
export function toMongoSort(sort: QueryOptions['sort']): MongoSort {
  if (sort !== undefined && !Array.isArray(sort)) throw new TypeError('sort must be an array of { field, order }');
  const keys: MongoSort = [];
  for (const term of sort ?? []) {
    const order = term?.order;
    if (order !== 'ASC' && order !== 'DESC') throw new TypeError(`invalid sort order ${String(order)}`);
    const path = fieldPath(term.field);
    // A repeated field adds nothing: the first occurrence already decided every tie it could.
    if (!keys.some(([p]) => p === path)) keys.push([path, order === 'ASC' ? 1 : -1]);
  }
  if (!keys.some(([p]) => p === '_id')) keys.push(['_id', 1]);
  return keys;
}

/**
 * Paths worth an index: those matched by value or range, and sorted on. `$ne` alone is skipped (an
 * index does not narrow "all but one value"), and `_id` has MongoDB's own index.
 */
export function indexablePaths(options: QueryOptions): string[] {
  const paths = new Set<string>();
  for (const [field, cond] of Object.entries(options.filter ?? {})) {
    if (field === '_id') continue;
    const byValue = cond === null || typeof cond !== 'object' || Object.keys(cond).some((op) => op === '$in' || isRange(op));
    if (byValue) paths.add(fieldPath(field));
  }
  for (const { field } of options.sort ?? []) if (field !== '_id') paths.add(fieldPath(field));
  return [...paths];
}

export interface PageWindow {
  skip: number;
  /** null: every match. */
  limit: number | null;
}

export function pageWindow(options: QueryOptions): PageWindow {
  if (options.pageSize === undefined) return { skip: 0, limit: null };
  const page = options.page ?? 1;
  if (!Number.isInteger(page) || page < 1) throw new TypeError(`invalid page ${page}`);
  if (!Number.isInteger(options.pageSize) || options.pageSize < 1) throw new TypeError(`invalid page size ${options.pageSize}`);
  return { skip: (page - 1) * options.pageSize, limit: options.pageSize };
}

// ---------------------------------------------------------------------------------------------
// In memory: the subset of MongoDB's query language and sort order that `toMongoFilter` and
// `toMongoSort` produce, evaluated on JSON documents. Used only for a transaction's kept writes, so
// a query inside a transaction ranks them exactly where the server ranks the committed ones.

const MISSING = Symbol('missing');
const EMPTY_ARRAY = Symbol('empty array');

/** Values at a dotted path, descending into arrays as MongoDB does (each element, and a numeric index). */
function valuesAt(value: unknown, segments: string[]): unknown[] {
  if (segments.length === 0) return [value];
  if (value === null || typeof value !== 'object') return [MISSING];
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(value)) {
    const found: unknown[] = [];
    if (/^\d+$/.test(head)) found.push(...valuesAt(Number(head) < value.length ? value[Number(head)] : MISSING, rest));
    for (const element of value) {
      if (element !== null && typeof element === 'object' && !Array.isArray(element)) found.push(...valuesAt(element, segments));
    }
    return found.length > 0 ? found : [MISSING];
  }
  return valuesAt(Object.hasOwn(value, head) ? (value as Record<string, unknown>)[head] : MISSING, rest);
}

/** A value and, when it is an array, its elements: what an equality or range is tried against. */
function leaves(values: unknown[]): unknown[] {
  return values.flatMap((v) => (Array.isArray(v) ? [v, ...v] : [v]));
}

function scalarEquals(candidate: unknown, value: Scalar): boolean {
  if (value === null) return candidate === null || candidate === MISSING;
  return typeof candidate === typeof value && candidate === value;
}

function compareStrings(a: string, b: string): number {
  // MongoDB compares strings by their UTF-8 bytes, which is code-point order (UTF-16 units differ above U+FFFF).
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function inRange(candidate: unknown, operator: RangeOperator, bound: number | string): boolean {
  if (typeof candidate !== typeof bound) return false;
  const c = typeof bound === 'string' ? compareStrings(candidate as string, bound) : (candidate as number) - bound;
  return operator === '$gt' ? c > 0 : operator === '$gte' ? c >= 0 : operator === '$lt' ? c < 0 : c <= 0;
}

/** Whether a stored document matches a query `toMongoFilter` produced. */
export function matchesMongo(record: StoredRecord, query: Document): boolean {
  return Object.entries(query).every(([path, cond]) => {
    const candidates = leaves(valuesAt(record, path.split('.')));
    const equals = (value: Scalar) => candidates.some((c) => scalarEquals(c, value));
    if (cond === null || typeof cond !== 'object') return equals(cond as Scalar);
    return Object.entries(cond as Document).every(([operator, operand]) => {
      if (operator === '$in') return (operand as Scalar[]).some(equals);
      if (operator === '$ne') return !equals(operand as Scalar);
      if (isRange(operator)) return candidates.some((c) => inRange(c, operator, operand as number | string));
      throw new TypeError(`unsupported operator ${operator}`);
    });
  });
}

/** MongoDB's order of types: (empty array in a sort), null and missing, numbers, strings, objects, arrays, booleans. */
function typeRank(value: unknown): number {
  if (value === EMPTY_ARRAY) return 0;
  if (value === null || value === MISSING || value === undefined) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'object') return 4;
  if (typeof value === 'boolean') return 8;
  return 9;
}

export function compareValues(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return Math.sign(rank);
  if (typeof a === 'number') return Math.sign(a - (b as number));
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a)) {
    const other = b as unknown[];
    for (let i = 0; i < Math.min(a.length, other.length); i++) {
      const c = compareValues(a[i], other[i]);
      if (c !== 0) return c;
    }
    return Math.sign(a.length - other.length);
  }
  if (a !== null && typeof a === 'object') {
    // Embedded documents: field by field, each by its value's type, then its name, then its value.
    const [x, y] = [Object.entries(a), Object.entries(b as object)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const [[kx, vx], [ky, vy]] = [x[i]!, y[i]!];
      const c = Math.sign(typeRank(vx) - typeRank(vy)) || compareStrings(kx, ky) || compareValues(vx, vy);
      if (c !== 0) return c;
    }
    return Math.sign(x.length - y.length);
  }
  return 0;
}

/**
 * The value a document sorts by on `path`: an array field sorts by its smallest element ascending and
 * its largest descending, an empty array before null, as MongoDB does.
 */
function sortKey(record: StoredRecord, path: string, direction: 1 | -1): unknown {
  const values = valuesAt(record, path.split('.')).flatMap((v) => (Array.isArray(v) ? (v.length === 0 ? [EMPTY_ARRAY] : v) : [v]));
  return values.reduce((best, v) => (compareValues(v, best) * direction < 0 ? v : best), values[0]);
}

/** Orders stored documents as the server does for a sort `toMongoSort` produced. */
export function compareRecords(a: StoredRecord, b: StoredRecord, sort: MongoSort): number {
  for (const [path, direction] of sort) {
    const c = compareValues(sortKey(a, path, direction), sortKey(b, path, direction)) * direction;
    if (c !== 0) return c;
  }
  return 0;
}
