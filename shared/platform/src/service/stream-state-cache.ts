import type { EventStore, RecordedEvent } from '../ports/event-store.ts';

/**
 * How a stream's stored events fold into a state. The object itself names the fold in the cache, so
 * two folds of one stream (two deciders, or one decider over parsed and over raw events) never share
 * an entry: keep one object per fold (a module constant), not a new one per call.
 */
export interface StreamFold<S> {
  initialState(): S;
  /** Pure: returns a new state and leaves `state` as it was (the cache hands the same state out again). */
  evolve(state: S, event: RecordedEvent): S;
}

export interface Folded<S> {
  state: S;
  /** Revision of the last event folded in; null when the stream does not exist. */
  revision: bigint | null;
}

interface Entry {
  state: unknown;
  revision: bigint;
}

/**
 * A stream's state is kept for streams used a few thousand commands back at most: about as many
 * as the commands of a busy minute touch, while an estate's state (its floors and rooms) is a few
 * kilobytes, so a store's cache stays in the tens of megabytes at worst.
 */
export const DEFAULT_STREAM_STATE_LIMIT = 2000;

let nextFoldId = 0;
const foldIds = new WeakMap<object, number>();

function foldId(fold: object): number {
  let id = foldIds.get(fold);
  if (id === undefined) foldIds.set(fold, (id = nextFoldId++));
  return id;
}

/**
 * Folded states of recently used streams, each with the revision it was folded to. Only a starting
 * point: the store stays the truth, read from the entry's revision on (events are never changed or
 * removed, so the state folded up to a revision stays the state of that prefix). Least recently used
 * entries go first once the limit is reached (a Map keeps insertion order; a hit re-inserts).
 */
export class StreamStateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly limit = DEFAULT_STREAM_STATE_LIMIT) {}

  get size(): number {
    return this.entries.size;
  }

  get<S>(fold: StreamFold<S>, stream: string): (Folded<S> & { revision: bigint }) | undefined {
    const key = keyOf(fold, stream);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { state: entry.state as S, revision: entry.revision };
  }

  /** Keeps the state unless a later one of the stream is kept already (concurrent commands finish in any order). */
  set<S>(fold: StreamFold<S>, stream: string, state: S, revision: bigint): void {
    const key = keyOf(fold, stream);
    const kept = this.entries.get(key);
    if (kept && kept.revision > revision) return;
    this.entries.delete(key);
    this.entries.set(key, { state, revision });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(oldest);
    }
  }

  delete(fold: StreamFold<unknown>, stream: string): void {
    this.entries.delete(keyOf(fold, stream));
  }
}

// The fold's id is a number, so the first ':' ends it whatever the stream's name holds.
const keyOf = (fold: object, stream: string) => `${foldId(fold)}:${stream}`;

const caches = new WeakMap<EventStore, StreamStateCache>();

/** The cache of one store instance (per instance: stores on other databases must not share states). */
export function streamStateCache(store: EventStore): StreamStateCache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new StreamStateCache()));
  return cache;
}

/**
 * The stream's current state: the cached state evolved with the events stored after it (written by
 * this process or by any other), or a fold of the whole stream when nothing is cached.
 */
export async function readFolded<S>(store: EventStore, stream: string, fold: StreamFold<S>): Promise<Folded<S>> {
  const cache = streamStateCache(store);
  const cached = cache.get(fold, stream);
  if (cached) {
    const newer = await store.readStream(stream, { fromRevision: cached.revision + 1n });
    // A store that answered from an earlier revision did not honour fromRevision: start over from a full read.
    if (newer.length === 0 || newer[0]!.revision > cached.revision) return evolveAndKeep(cache, stream, fold, cached, newer);
    cache.delete(fold, stream);
  }
  const recorded = await store.readStream(stream);
  return evolveAndKeep(cache, stream, fold, { state: fold.initialState(), revision: null }, recorded);
}

/** Drops the stream's state, so that the next read folds the whole stream. */
export function forgetFolded(store: EventStore, stream: string, fold: StreamFold<unknown>): void {
  caches.get(store)?.delete(fold, stream);
}

function evolveAndKeep<S>(
  cache: StreamStateCache,
  stream: string,
  fold: StreamFold<S>,
  start: Folded<S>,
  events: RecordedEvent[],
): Folded<S> {
  let { state } = start;
  try {
    for (const event of events) state = fold.evolve(state, event);
  } catch (err) {
    // An event this code cannot fold: nothing half-folded may stay behind.
    cache.delete(fold, stream);
    throw err;
  }
  const revision = events.at(-1)?.revision ?? start.revision;
  if (revision !== null && events.length > 0) cache.set(fold, stream, state, revision);
  return { state, revision };
}
