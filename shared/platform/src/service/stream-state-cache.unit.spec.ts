import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../ports/bus.ts';
import { ANY, type EventStore, type NewEvent, type ReadStreamOptions } from '../ports/event-store.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { fold, handleCommand, type CommandContext, type Decider } from './decider.ts';
import { forgetFolded, readFolded, StreamStateCache, streamStateCache, type StreamFold } from './stream-state-cache.ts';

type Added = { type: 'Added'; data: { n: number } };
type Add = { type: 'Add'; n: number; max: number };
type Tally = { total: number; count: number };

/** Adds up to a bound, so a decision depends on every earlier event. */
const tally: Decider<Add, Added, Tally> = {
  initialState: () => ({ total: 0, count: 0 }),
  decide: (c, s) => {
    if (s.total + c.n > c.max) throw new DomainError(409, [`${s.total} + ${c.n} exceeds ${c.max}`]);
    return [{ type: 'Added', data: { n: c.n } }];
  },
  evolve: (s, e) => ({ total: s.total + e.data.n, count: s.count + 1 }),
};

/** Another decider over the same stream, with another state. */
const largest: Decider<Add, Added, { max: number }> = {
  initialState: () => ({ max: 0 }),
  decide: () => [],
  evolve: (s, e) => ({ max: Math.max(s.max, e.data.n) }),
};

const context = (idempotency_key?: string): CommandContext => ({
  metadata: {
    actor: { user_id: null, client_id: null },
    correlation_id: 'c',
    causation_id: null,
    ...(idempotency_key ? { idempotency_key } : {}),
  },
  now: '2024-01-01T00:00:00.000Z',
});
const added = (n: number): NewEvent => ({
  event_id: randomUUID(),
  type: 'Added',
  data: { n },
  metadata: context().metadata,
  occurred_at: context().now,
});
const add = (n: number, max = 1000): Add => ({ type: 'Add', n, max });

const opened: SqliteEventStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  vi.restoreAllMocks();
});

/** A store whose reads are recorded: the options of each and the number of events it returned. */
function watched() {
  const store = openSqliteEventStore({ file: ':memory:' });
  opened.push(store);
  const reads: Array<{ options: ReadStreamOptions | undefined; rows: number }> = [];
  const read = store.readStream.bind(store);
  vi.spyOn(store, 'readStream').mockImplementation(async (stream, options) => {
    const rows = await read(stream, options);
    reads.push({ options, rows: rows.length });
    return rows;
  });
  return { store, reads };
}

const wholeStream = async (store: EventStore, stream: string) =>
  fold(
    tally,
    (await store.readStream(stream)).map((e) => ({ type: 'Added', data: e.data as { n: number } })),
  );

describe('handleCommand on the stream state cache', () => {
  it('reads only the events stored after the state it folded last', async () => {
    const { store, reads } = watched();
    for (let i = 1; i <= 4; i++) await handleCommand(store, 'tally-1', tally, add(i), context());
    // The first command finds no stream (nothing to keep), the second folds the stream, the others
    // read from the revision after the kept state on: the event the previous command appended.
    expect(reads).toEqual([
      { options: undefined, rows: 0 },
      { options: undefined, rows: 1 },
      { options: { fromRevision: 1n }, rows: 1 },
      { options: { fromRevision: 2n }, rows: 1 },
    ]);
    const last = await handleCommand(store, 'tally-1', tally, add(0), context());
    expect(last.state).toEqual({ total: 10, count: 5 });
    expect(last.state).toEqual(await wholeStream(store, 'tally-1'));
  });

  it('sees events another writer stored after the kept state, and decides on them', async () => {
    const { store } = watched();
    await handleCommand(store, 'tally-2', tally, add(5), context());
    await handleCommand(store, 'tally-2', tally, add(5), context());
    // Another process (or replica) appends: this process's cache knows nothing of it.
    await store.append('tally-2', [added(80)], ANY);
    await expect(handleCommand(store, 'tally-2', tally, add(20, 100), context())).rejects.toMatchObject({ status: 409 });
    const result = await handleCommand(store, 'tally-2', tally, add(10, 100), context());
    expect(result.state).toEqual({ total: 100, count: 4 });
    expect(result.state).toEqual(await wholeStream(store, 'tally-2'));
  });

  it('drops the kept state on a concurrent append and retries on a full read', async () => {
    const { store, reads } = watched();
    await handleCommand(store, 'tally-3', tally, add(1), context());
    await handleCommand(store, 'tally-3', tally, add(1), context());
    reads.length = 0;
    // Another writer appends between this command's read and its append.
    const append = store.append.bind(store);
    vi.spyOn(store, 'append').mockImplementationOnce(async (...args) => {
      await append('tally-3', [added(50)], ANY);
      return append(...args);
    });
    const result = await handleCommand(store, 'tally-3', tally, add(2), context());
    expect(reads).toEqual([
      { options: { fromRevision: 1n }, rows: 1 },
      { options: undefined, rows: 3 },
    ]);
    expect(result.state).toEqual({ total: 54, count: 4 });
    expect(result.state).toEqual(await wholeStream(store, 'tally-3'));
    // The full read is kept again: the next command reads from after it.
    reads.length = 0;
    await handleCommand(store, 'tally-3', tally, add(0), context());
    expect(reads).toEqual([{ options: { fromRevision: 3n }, rows: 1 }]);
  });

  it('lets 20 concurrent commands on one stream all land, retrying collisions after random pauses', async () => {
    const { store } = watched();
    await handleCommand(store, 'tally-busy', tally, add(0), context());
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => handleCommand(store, 'tally-busy', tally, add(i + 1), context())),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(await wholeStream(store, 'tally-busy')).toEqual({ total: 210, count: 21 });
  });

  it('keeps one state per decider: two deciders of one stream share nothing', async () => {
    const { store } = watched();
    await handleCommand(store, 'tally-4', tally, add(7), context());
    await handleCommand(store, 'tally-4', tally, add(3), context());
    expect((await handleCommand(store, 'tally-4', largest, add(0), context())).state).toEqual({ max: 7 });
    expect(await handleCommand(store, 'tally-4', tally, add(0, 0), context()).catch((e: unknown) => e)).toBeInstanceOf(DomainError);
    expect((await handleCommand(store, 'tally-4', tally, add(1), context())).state).toEqual({ total: 11, count: 3 });
    expect((await handleCommand(store, 'tally-4', largest, add(0), context())).state).toEqual({ max: 7 });
  });

  it('keeps one state per store instance', async () => {
    const a = watched();
    const b = watched();
    await handleCommand(a.store, 'tally-5', tally, add(1), context());
    await handleCommand(a.store, 'tally-5', tally, add(1), context());
    expect((await handleCommand(b.store, 'tally-5', tally, add(4), context())).state).toEqual({ total: 4, count: 1 });
    expect(streamStateCache(a.store)).not.toBe(streamStateCache(b.store));
  });

  it('answers a repeated keyed command from its first append, without deciding again', async () => {
    const { store } = watched();
    const first = await handleCommand(store, 'tally-6', tally, add(3), context('key-1'));
    await handleCommand(store, 'tally-6', tally, add(4), context());
    const again = await handleCommand(store, 'tally-6', tally, add(3), context('key-1'));
    expect(again.position).toBe(first.position);
    expect(again.state).toEqual({ total: 7, count: 2 });
    expect(await store.readStream('tally-6')).toHaveLength(2);
  });
});

describe('readFolded', () => {
  const tallyFold: StreamFold<Tally> = { initialState: tally.initialState, evolve: (s, e) => tally.evolve(s, e as unknown as Added) };

  it('starts over from a full read when a store answers from an earlier revision than asked', async () => {
    const { store } = watched();
    await store.append('tally-7', [added(1), added(2)], ANY);
    expect(await readFolded(store, 'tally-7', tallyFold)).toEqual({ state: { total: 3, count: 2 }, revision: 1n });
    await store.append('tally-7', [added(4)], ANY);
    const read = store.readStream.bind(store);
    // A store that ignores fromRevision, as a hand-written fake might.
    const ignoring = Object.assign(Object.create(store) as EventStore, { readStream: (stream: string) => read(stream) });
    streamStateCache(ignoring).set(tallyFold, 'tally-7', { total: 3, count: 2 }, 1n);
    expect(await readFolded(ignoring, 'tally-7', tallyFold)).toEqual({ state: { total: 7, count: 3 }, revision: 2n });
  });

  it('leaves nothing behind when an event cannot be folded, and forgets on request', async () => {
    const { store, reads } = watched();
    await store.append('tally-8', [added(1)], ANY);
    const failing: StreamFold<Tally> = {
      initialState: tally.initialState,
      evolve: (s, e) => {
        if ((e.data as { n: number }).n > 5) throw new Error('unknown shape');
        return tally.evolve(s, e as unknown as Added);
      },
    };
    await readFolded(store, 'tally-8', failing);
    await store.append('tally-8', [added(9)], ANY);
    await expect(readFolded(store, 'tally-8', failing)).rejects.toThrow('unknown shape');
    reads.length = 0;
    await expect(readFolded(store, 'tally-8', failing)).rejects.toThrow('unknown shape');
    expect(reads).toEqual([{ options: undefined, rows: 2 }]);
    await readFolded(store, 'tally-8', tallyFold);
    forgetFolded(store, 'tally-8', tallyFold);
    reads.length = 0;
    await readFolded(store, 'tally-8', tallyFold);
    expect(reads).toEqual([{ options: undefined, rows: 2 }]);
  });
});

describe('StreamStateCache', () => {
  const f: StreamFold<number> = { initialState: () => 0, evolve: (s) => s + 1 };

  it('holds at most its limit, dropping the least recently used first', () => {
    const cache = new StreamStateCache(2);
    cache.set(f, 'a', 1, 0n);
    cache.set(f, 'b', 2, 0n);
    expect(cache.get(f, 'a')).toEqual({ state: 1, revision: 0n });
    cache.set(f, 'c', 3, 0n);
    expect(cache.size).toBe(2);
    expect(cache.get(f, 'b')).toBeUndefined();
    expect(cache.get(f, 'a')).toEqual({ state: 1, revision: 0n });
    expect(cache.get(f, 'c')).toEqual({ state: 3, revision: 0n });
    for (let i = 0; i < 100; i++) cache.set(f, `s-${i}`, i, 0n);
    expect(cache.size).toBe(2);
  });

  it('keeps a later state of a stream over an earlier one set after it', () => {
    const cache = new StreamStateCache();
    cache.set(f, 'a', 5, 4n);
    cache.set(f, 'a', 2, 1n);
    expect(cache.get(f, 'a')).toEqual({ state: 5, revision: 4n });
    cache.set(f, 'a', 6, 5n);
    expect(cache.get(f, 'a')).toEqual({ state: 6, revision: 5n });
  });

  it('names a fold by its object, whatever the stream is called', () => {
    const g: StreamFold<number> = { initialState: () => 0, evolve: (s) => s + 1 };
    const cache = new StreamStateCache();
    cache.set(f, 'x:y', 1, 0n);
    expect(cache.get(g, 'x:y')).toBeUndefined();
    expect(cache.get(f, 'x:y')).toEqual({ state: 1, revision: 0n });
  });
});
