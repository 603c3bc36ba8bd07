import { describe, expect, it } from 'vitest';
import type { Filter } from '../ports/read-store.ts';
import {
  compareRecords,
  compareValues,
  indexablePaths,
  matchesMongo,
  pageWindow,
  toMongoFilter,
  toMongoSort,
  type StoredRecord,
} from './mongo-filter.ts';
import { ESTATES, FILTER_CASES, type Estate } from '../testing/read-store-cases.ts';
import { assertDatabaseName, assertPrefix, blobKeySegments, databaseFromUrl, documentsCollection } from './mongo-names.ts';

// The read-store contract's documents and cases: the in-memory evaluator must agree with the port.
const records: StoredRecord[] = ESTATES.map((e) => ({ _id: e.id, doc: e }));
const matching = (filter: Filter) => records.filter((r) => matchesMongo(r, toMongoFilter(filter))).map((r) => r._id);

describe('toMongoFilter', () => {
  it('reads fields under doc, the id from _id, and keeps MongoDB operators as they are', () => {
    expect(
      toMongoFilter({
        region: 'BE',
        'owner.city': { $in: ['Gent', null] },
        label: { $ne: 'D' },
        year: { $gte: 1995, $lt: 2020 },
        heated: false,
      }),
    ).toEqual({
      'doc.region': 'BE',
      'doc.owner.city': { $in: ['Gent', null] },
      'doc.label': { $ne: 'D' },
      'doc.year': { $gte: 1995, $lt: 2020 },
      'doc.heated': false,
    });
    expect(toMongoFilter(undefined)).toEqual({});
  });

  it('matches _id as the text of the key, and null on _id as nothing', () => {
    expect(toMongoFilter({ _id: 5 })).toEqual({ _id: '5' });
    expect(toMongoFilter({ _id: null })).toEqual({ _id: { $in: [] } });
    expect(toMongoFilter({ _id: { $in: ['a', 1, null] } })).toEqual({ _id: { $in: ['a', '1'] } });
    expect(toMongoFilter({ _id: { $ne: null } })).toEqual({});
    expect(toMongoFilter({ _id: { $gt: 'm' } })).toEqual({ _id: { $gt: 'm' } });
  });

  it('drops a condition with nothing in it instead of asking for an empty object', () => {
    expect(toMongoFilter({ year: {} })).toEqual({});
    expect(toMongoFilter({ year: { $gt: undefined, $lt: 3 } })).toEqual({ 'doc.year': { $lt: 3 } });
  });

  it.each<[string, Filter, RegExp]>([
    ['an operator as a field', { $where: 'sleep(1000)' } as never, /invalid field/],
    ['an operator inside a path', { 'a.$b': 1 }, /invalid field/],
    ['an empty path segment', { 'a..b': 1 }, /invalid field/],
    ['an operator the port lacks', { a: { $regex: '.*' } as never }, /unsupported operator \$regex on a/],
    ['$in without an array', { a: { $in: 'x' } as never }, /\$in on a needs an array/],
    ['an object inside $in', { a: { $in: [{ $gt: 1 }] } as never }, /\$in on a needs a string/],
    ['an object for $ne', { a: { $ne: { $gt: 1 } } as never }, /\$ne on a needs a string/],
    ['a boolean range bound', { a: { $gt: true } }, /\$gt on a needs a number or a string/],
    ['a null range bound', { a: { $lte: null } }, /\$lte on a needs a number or a string/],
    ['an infinite bound', { a: { $lt: Infinity } }, /finite/],
    ['an array as a condition', { a: [1, 2] as never }, /use \{ \$in/],
  ])('refuses %s', (_label, filter, message) => {
    expect(() => toMongoFilter(filter)).toThrow(message);
  });
});

describe('matchesMongo (a transaction’s kept writes)', () => {
  const cases: Array<[string, Filter, (e: Estate) => boolean]> = [
    ...FILTER_CASES,
    ['$ne null, which needs the field', { label: { $ne: null } }, (e) => e.label != null],
    ['a range of another type than the field', { year: { $gt: '1' } }, () => false],
    ['the id', { _id: { $in: ['e2', 'e5'] } }, (e) => e.id === 'e2' || e.id === 'e5'],
  ];
  it.each(cases)('filters on %s as the port says', (_label, filter, predicate) => {
    expect(matching(filter)).toEqual(ESTATES.filter(predicate).map((e) => e.id));
  });

  it('compares numbers by value and booleans by type, and looks into arrays as MongoDB does', () => {
    const docs: StoredRecord[] = [
      { _id: 'a', doc: { v: 1, tags: ['x', 'y'], rooms: [{ m2: 10 }, { m2: 30 }] } },
      { _id: 'b', doc: { v: 1.0, tags: [] } },
      { _id: 'c', doc: { v: true, rooms: [{ m2: 20 }] } },
    ];
    const ids = (filter: Filter) => docs.filter((r) => matchesMongo(r, toMongoFilter(filter))).map((r) => r._id);
    expect(ids({ v: 1 })).toEqual(['a', 'b']);
    expect(ids({ v: true })).toEqual(['c']);
    expect(ids({ tags: 'y' })).toEqual(['a']);
    expect(ids({ tags: { $ne: 'y' } })).toEqual(['b', 'c']);
    expect(ids({ 'rooms.m2': { $gt: 25 } })).toEqual(['a']);
    expect(ids({ 'rooms.1.m2': 30 })).toEqual(['a']);
    expect(ids({ 'rooms.m2': null })).toEqual(['b']);
  });
});

describe('sorting', () => {
  it('orders by the given fields, then by id, and never lists a field twice', () => {
    expect(
      toMongoSort([
        { field: 'year', order: 'DESC' },
        { field: 'owner.city', order: 'ASC' },
        { field: 'year', order: 'ASC' },
      ]),
    ).toEqual([
      ['doc.year', -1],
      ['doc.owner.city', 1],
      ['_id', 1],
    ]);
    expect(toMongoSort([{ field: '_id', order: 'DESC' }])).toEqual([['_id', -1]]);
    expect(toMongoSort(undefined)).toEqual([['_id', 1]]);
    expect(() => toMongoSort([{ field: 'a', order: 'asc' as never }])).toThrow(/invalid sort order asc/);
  });

  it('ranks records in memory as the contract expects of the server', () => {
    const sort = toMongoSort([
      { field: 'year', order: 'DESC' },
      { field: 'owner.city', order: 'ASC' },
    ]);
    const ranked = [...records].sort((a, b) => compareRecords(a, b, sort)).map((r) => r._id);
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    expect(ranked).toEqual([...ESTATES].sort((a, b) => b.year - a.year || cmp(a.owner.city, b.owner.city)).map((e) => e.id));
  });

  it('puts types in MongoDB order: missing and null, numbers, strings, objects, arrays, booleans', () => {
    const values = [true, [1], { a: 1 }, 'b', 'a', 10, 2, null];
    const docs: StoredRecord[] = [{ _id: 'missing', doc: {} }, ...values.map((v, i) => ({ _id: `v${i}`, doc: { v } }))];
    const ascending = [...docs]
      .sort((a, b) => compareRecords(a, b, toMongoSort([{ field: 'v', order: 'ASC' }])))
      .map((r) => (r.doc as { v?: unknown }).v);
    // An array sorts by its smallest element ascending: [1] sits with the numbers.
    expect(ascending).toEqual([undefined, null, [1], 2, 10, 'a', 'b', { a: 1 }, true]);
  });

  it('sorts an array by its smallest element ascending and its largest descending, an empty one first', () => {
    const docs: StoredRecord[] = [
      { _id: 'a', doc: { v: [5, 1] } },
      { _id: 'b', doc: { v: 3 } },
      { _id: 'c', doc: { v: [] } },
      { _id: 'd', doc: { v: null } },
    ];
    const ids = (order: 'ASC' | 'DESC') =>
      [...docs].sort((x, y) => compareRecords(x, y, toMongoSort([{ field: 'v', order }]))).map((r) => r._id);
    expect(ids('ASC')).toEqual(['c', 'd', 'a', 'b']);
    expect(ids('DESC')).toEqual(['a', 'b', 'd', 'c']);
  });

  it('compares strings by UTF-8 bytes, as MongoDB does, not by UTF-16 units', () => {
    expect(compareValues('\uffff', '\u{1F600}')).toBe(-1);
    expect('\uffff' < '\u{1F600}').toBe(false);
    expect(compareValues('B', 'a')).toBe(-1);
  });
});

describe('indexes and paging', () => {
  it('indexes fields matched by value, by range and sorted on; not $ne, not _id', () => {
    expect(
      indexablePaths({
        filter: { region: 'BE', label: { $ne: 'D' }, year: { $gt: 1 }, org: { $in: ['o1'] }, _id: 'x', missing: null },
        sort: [
          { field: 'name', order: 'ASC' },
          { field: '_id', order: 'ASC' },
          { field: 'region', order: 'DESC' },
        ],
      }),
    ).toEqual(['doc.region', 'doc.year', 'doc.org', 'doc.missing', 'doc.name']);
  });

  it('turns pages into skip and limit, and refuses a page that cannot exist', () => {
    expect(pageWindow({})).toEqual({ skip: 0, limit: null });
    expect(pageWindow({ pageSize: 10 })).toEqual({ skip: 0, limit: 10 });
    expect(pageWindow({ page: 3, pageSize: 10 })).toEqual({ skip: 20, limit: 10 });
    expect(() => pageWindow({ page: 0, pageSize: 10 })).toThrow(/invalid page 0/);
    expect(() => pageWindow({ page: 1, pageSize: 0 })).toThrow(/invalid page size 0/);
    expect(() => pageWindow({ page: 1.5, pageSize: 2 })).toThrow(/invalid page/);
  });
});

describe('names', () => {
  it('keeps read-model collections apart from the checkpoints, per prefix', () => {
    expect(documentsCollection('renopath', 'renopath_estates', 'checkpoints')).toBe('renopath_estates.rm.checkpoints');
    expect(() => documentsCollection('renopath', 'p', '')).toThrow(/collection name/);
    expect(() => documentsCollection('renopath', 'p', 'a$b')).toThrow(/collection name/);
    expect(() => documentsCollection('renopath', 'p', 'x'.repeat(300))).toThrow(/too long/);
  });

  it('takes the database from the URL path, for one host or several', () => {
    expect(databaseFromUrl('mongodb://localhost:27017/reads?replicaSet=rs0')).toBe('reads');
    expect(databaseFromUrl('mongodb://a:1,b:2/multi')).toBe('multi');
    expect(databaseFromUrl('mongodb+srv://user:pw@cluster.example.net/atlas?retryWrites=true')).toBe('atlas');
    expect(databaseFromUrl('mongodb://localhost:27017/?directConnection=true')).toBeUndefined();
    expect(databaseFromUrl('mongodb://localhost:27017')).toBeUndefined();
  });

  it('accepts plain database names and prefixes only', () => {
    expect(assertDatabaseName('renopath_test-1')).toBe('renopath_test-1');
    for (const bad of ['', 'a.b', 'a/b', 'a b', 'a$', 'x'.repeat(64)]) expect(() => assertDatabaseName(bad)).toThrow(/database name/);
    expect(() => assertPrefix('a.b')).toThrow(/prefix/);
  });

  it('validates blob keys as the filesystem store does', () => {
    expect(blobKeySegments('estate-1/files/plan.pdf')).toEqual(['estate-1', 'files', 'plan.pdf']);
    for (const key of ['', '../escape', 'a/../../escape', '/absolute', 'a//b', 'a/', './a', 'a/./b', 'a\\b', 'a\0b']) {
      expect(() => blobKeySegments(key), key).toThrow(/invalid blob key/);
    }
  });
});
