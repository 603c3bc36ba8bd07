import { afterEach, describe, expect, it } from 'vitest';
import {
  ANY,
  EventIdConflictError,
  exact,
  NO_STREAM,
  WrongExpectedRevisionError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../ports/event-store.ts';
import { newEvent, rejection, uniqueName } from './contract-helpers.ts';

/**
 * Opens an event store on the storage named `storage`. A new name must give a store no other test
 * writes to; the same name again (after `close()`) must reopen the same data.
 */
export type EventStoreFactory = (storage: string) => Promise<EventStore>;

export interface EventStoreContractOptions {
  /**
   * The adapter's storage is one global log shared with other writers (an EventStoreDB server), so
   * a new storage name does not give an empty log: checks that need one are skipped.
   */
  sharedLog?: boolean;
}

function take(subscription: Subscription, count: number): Promise<RecordedEvent[]> {
  const iterator = subscription[Symbol.asyncIterator]();
  return (async () => {
    const events: RecordedEvent[] = [];
    while (events.length < count) {
      const next = await iterator.next();
      if (next.done) break;
      events.push(next.value);
    }
    return events;
  })();
}

const ids = (events: Array<{ event_id: string }>): string[] => events.map((e) => e.event_id);

/** What every EventStore adapter must do; run it from the adapter's `*.int.spec.ts`. */
export function eventStoreContract(name: string, open: EventStoreFactory, options: EventStoreContractOptions = {}): void {
  describe(`EventStore contract: ${name}`, () => {
    const opened: EventStore[] = [];
    const openStore = async (storage = uniqueName('store')): Promise<EventStore> => {
      const store = await open(storage);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    describe('append and read a stream', () => {
      it('stores events with consecutive revisions and returns the last revision and position', async () => {
        const store = await openStore();
        const stream = uniqueName('estate');
        const events = [newEvent('EstateCreated', { estate_id: stream, name: 'Home' }), newEvent('RoofUpdated', { area: 80.5 })];
        const result = await store.append(stream, events, NO_STREAM);
        expect(result.next_revision).toBe(1n);
        const stored = await store.readStream(stream);
        expect(stored.map((e) => e.revision)).toEqual([0n, 1n]);
        expect(stored.map(({ event_id, type, data, metadata, occurred_at }) => ({ event_id, type, data, metadata, occurred_at }))).toEqual(
          events,
        );
        expect(stored.every((e) => e.stream === stream)).toBe(true);
        expect(stored[1]!.position).toBe(result.position);
        expect(stored[0]!.position).toBeLessThan(stored[1]!.position);
      });

      it('reads a missing stream as empty, and honours fromRevision and maxCount', async () => {
        const store = await openStore();
        const stream = uniqueName('estate');
        expect(await store.readStream(stream)).toEqual([]);
        const events = [newEvent(), newEvent(), newEvent(), newEvent()];
        await store.append(stream, events, NO_STREAM);
        expect(ids(await store.readStream(stream, { fromRevision: 1n, maxCount: 2 }))).toEqual(ids(events.slice(1, 3)));
        expect(ids(await store.readStream(stream, { fromRevision: 3n }))).toEqual(ids(events.slice(3)));
      });
    });

    describe('expected revision', () => {
      it('no_stream succeeds once, then fails with the actual revision', async () => {
        const store = await openStore();
        const stream = uniqueName('org');
        await store.append(stream, [newEvent(), newEvent()], NO_STREAM);
        const error = await rejection(store.append(stream, [newEvent()], NO_STREAM));
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect((error as WrongExpectedRevisionError).actual).toBe(1n);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('exact succeeds on the current revision and fails on a stale or missing one', async () => {
        const store = await openStore();
        const stream = uniqueName('org');
        await store.append(stream, [newEvent()], NO_STREAM);
        expect((await store.append(stream, [newEvent()], exact(0n))).next_revision).toBe(1n);

        const stale = await rejection(store.append(stream, [newEvent()], exact(0n)));
        expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
        expect((stale as WrongExpectedRevisionError).actual).toBe(1n);

        const missing = await rejection(store.append(uniqueName('org'), [newEvent()], exact(0n)));
        expect(missing).toBeInstanceOf(WrongExpectedRevisionError);
        expect((missing as WrongExpectedRevisionError).actual).toBeNull();
      });

      it('any appends at the end whatever the revision', async () => {
        const store = await openStore();
        const stream = uniqueName('org');
        expect((await store.append(stream, [newEvent()], ANY)).next_revision).toBe(0n);
        expect((await store.append(stream, [newEvent(), newEvent()], ANY)).next_revision).toBe(2n);
      });

      it('lets exactly one of two racing appends with the same expected revision win', async () => {
        const store = await openStore();
        const stream = uniqueName('org');
        await store.append(stream, [newEvent()], NO_STREAM);
        const outcomes = await Promise.allSettled([
          store.append(stream, [newEvent()], exact(0n)),
          store.append(stream, [newEvent()], exact(0n)),
        ]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        expect(failed.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(stream)).toHaveLength(2);
      });
    });

    // Appends issued together may be committed together (SQLite's group commit):
    // each must still be checked and answered on its own.
    describe('appends issued together', () => {
      it('of many appends to one stream with the same expected revision, exactly one wins', async () => {
        const store = await openStore();
        const stream = uniqueName('job');
        await store.append(stream, [newEvent()], NO_STREAM);
        const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => store.append(stream, [newEvent()], exact(0n))));
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('a failing append does not fail the others, nor leave any of its events', async () => {
        const store = await openStore();
        const [a, b, c] = [uniqueName('job'), uniqueName('job'), uniqueName('job')];
        await store.append(b, [newEvent()], NO_STREAM);
        const good = [newEvent(), newEvent()];
        const duplicate = newEvent();
        const outcomes = await Promise.allSettled([
          store.append(a, good, NO_STREAM),
          store.append(b, [newEvent(), newEvent()], NO_STREAM),
          store.append(c, [duplicate, duplicate], NO_STREAM),
          store.append(uniqueName('job'), [newEvent()], ANY),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
        expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(EventIdConflictError);
        expect(ids(await store.readStream(a))).toEqual(ids(good));
        expect(await store.readStream(b)).toHaveLength(1);
        expect(await store.readStream(c)).toEqual([]);
        const first = (outcomes[0] as PromiseFulfilledResult<{ position: bigint }>).value;
        expect((await store.readStream(a))[1]!.position).toBe(first.position);
      });

      it('answers an append only once a reader can see it', async () => {
        const store = await openStore();
        const stream = uniqueName('job');
        const seen = await Promise.all(
          [0, 1, 2].map(async (i) => {
            const event = newEvent();
            await store.append(`${stream}-${i}`, [event], NO_STREAM);
            return ids(await store.readStream(`${stream}-${i}`)).includes(event.event_id);
          }),
        );
        expect(seen).toEqual([true, true, true]);
      });
    });

    describe('idempotent append', () => {
      it('a repeated append returns the original result and writes nothing', async () => {
        const store = await openStore();
        const stream = uniqueName('renovation');
        await store.append(stream, [newEvent()], NO_STREAM);
        const batch = [newEvent(), newEvent()];
        const first = await store.append(stream, batch, exact(0n));
        const head = await store.headPosition();

        expect(await store.append(stream, batch, exact(0n))).toEqual(first);
        expect(await store.headPosition()).toBe(head);
        expect(ids(await store.readStream(stream))).toHaveLength(3);
      });

      it('is still idempotent after the stream moved on, and with any', async () => {
        const store = await openStore();
        const stream = uniqueName('renovation');
        const batch = [newEvent(), newEvent()];
        const first = await store.append(stream, batch, ANY);
        await store.append(stream, [newEvent()], exact(1n));
        expect(await store.append(stream, batch, ANY)).toEqual(first);
        const all = await store.readAll();
        expect(all.filter((e) => e.stream === stream)).toHaveLength(3);
      });

      it('rejects a partial overlap and writes none of its events', async () => {
        const store = await openStore();
        const stream = uniqueName('renovation');
        const a = newEvent();
        await store.append(stream, [a], NO_STREAM);
        const b = newEvent();
        const error = await rejection(store.append(stream, [a, b], ANY));
        expect(error instanceof EventIdConflictError || error instanceof WrongExpectedRevisionError).toBe(true);
        expect(ids(await store.readStream(stream))).toEqual([a.event_id]);
      });

      it('rejects the same ids sent with another expected revision', async () => {
        const store = await openStore();
        const stream = uniqueName('renovation');
        const batch = [newEvent()];
        await store.append(stream, batch, NO_STREAM);
        await store.append(stream, [newEvent()], exact(0n));
        const error = await rejection(store.append(stream, batch, exact(1n)));
        expect(error instanceof EventIdConflictError || error instanceof WrongExpectedRevisionError).toBe(true);
        expect(await store.readStream(stream)).toHaveLength(2);
      });
    });

    describe('idempotency key', () => {
      it('answers a second append under the same key with the first result and writes nothing', async () => {
        const store = await openStore();
        const stream = uniqueName('estate');
        const key = uniqueName('client:key');
        expect(await store.appendedUnder(stream, key)).toBeNull();
        const first = await store.append(stream, [newEvent(), newEvent()], NO_STREAM, { idempotencyKey: key });
        expect(await store.appendedUnder(stream, key)).toEqual(first);
        const head = await store.headPosition();
        // A retry re-decides: other event ids, and an expected revision that no longer holds.
        expect(await store.append(stream, [newEvent()], NO_STREAM, { idempotencyKey: key })).toEqual(first);
        expect(await store.headPosition()).toBe(head);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('keeps keys per stream, and records nothing for an append that failed', async () => {
        const store = await openStore();
        const [a, b] = [uniqueName('estate'), uniqueName('estate')];
        const key = uniqueName('client:key');
        await store.append(a, [newEvent()], NO_STREAM, { idempotencyKey: key });
        expect(await store.appendedUnder(b, key)).toBeNull();
        await store.append(b, [newEvent()], NO_STREAM);
        const refused = await rejection(store.append(b, [newEvent()], NO_STREAM, { idempotencyKey: key }));
        expect(refused).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.appendedUnder(b, key)).toBeNull();
        expect((await store.append(b, [newEvent()], exact(0n), { idempotencyKey: key })).next_revision).toBe(1n);
      });

      it('lets exactly one of two racing appends under one key write', async () => {
        const store = await openStore();
        const stream = uniqueName('estate');
        const key = uniqueName('client:key');
        const results = await Promise.all([
          store.append(stream, [newEvent()], NO_STREAM, { idempotencyKey: key }),
          store.append(stream, [newEvent()], NO_STREAM, { idempotencyKey: key }),
        ]);
        expect(results[1]).toEqual(results[0]);
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      it('remembers keys after the store is closed and reopened', async () => {
        const storage = uniqueName('store');
        const stream = uniqueName('estate');
        const key = uniqueName('client:key');
        const first = await (async () => {
          const store = await open(storage);
          const result = await store.append(stream, [newEvent()], NO_STREAM, { idempotencyKey: key });
          await store.close();
          return result;
        })();
        const store = await openStore(storage);
        expect(await store.append(stream, [newEvent()], exact(0n), { idempotencyKey: key })).toEqual(first);
        expect(await store.readStream(stream)).toHaveLength(1);
      });
    });

    describe('global log', () => {
      it('orders events of all streams by strictly increasing position', async () => {
        const store = await openStore();
        const [s1, s2] = [uniqueName('estate'), uniqueName('estate')];
        const before = await store.headPosition();
        const appended: NewEvent[] = [];
        for (const [stream, expected] of [
          [s1, NO_STREAM],
          [s2, NO_STREAM],
          [s1, exact(0n)],
          [s2, exact(0n)],
        ] as const) {
          const event = newEvent();
          appended.push(event);
          await store.append(stream, [event], expected);
        }
        const all = await store.readAll({ after: before });
        expect(ids(all)).toEqual(ids(appended));
        for (let i = 1; i < all.length; i++) expect(all[i]!.position).toBeGreaterThan(all[i - 1]!.position);
        const head = await store.headPosition();
        if (options.sharedLog) expect(head).toBeGreaterThanOrEqual(all[all.length - 1]!.position);
        else expect(head).toBe(all[all.length - 1]!.position);

        const page = await store.readAll({ after: all[0]!.position, maxCount: 2 });
        expect(ids(page)).toEqual(ids(appended.slice(1, 3)));
      });

      it.skipIf(options.sharedLog)('starts empty', async () => {
        const store = await openStore();
        expect(await store.headPosition()).toBe(0n);
        expect(await store.readAll()).toEqual([]);
      });
    });

    describe('subscribeToAll', () => {
      it('delivers stored events, then live ones, in position order', async () => {
        const store = await openStore();
        const prefix = `${uniqueName('sub')}-`;
        const stored = [newEvent(), newEvent()];
        await store.append(`${prefix}a`, stored, NO_STREAM);
        const subscription = store.subscribeToAll({ streamPrefixes: [prefix] });
        const received = take(subscription, 4);
        const live = [newEvent(), newEvent()];
        await store.append(`${prefix}b`, [live[0]!], NO_STREAM);
        await store.append(`${prefix}a`, [live[1]!], exact(1n));
        const events = await received;
        expect(ids(events)).toEqual(ids([...stored, ...live]));
        for (let i = 1; i < events.length; i++) expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position);
        await subscription.close();
      });

      it('starts after the given position and skips other streams', async () => {
        const store = await openStore();
        const prefix = `${uniqueName('sub')}-`;
        const first = await store.append(`${prefix}a`, [newEvent()], NO_STREAM);
        await store.append(uniqueName('other'), [newEvent()], NO_STREAM);
        const wanted = newEvent();
        await store.append(`${prefix}a`, [wanted], exact(0n));
        const subscription = store.subscribeToAll({ after: first.position, streamPrefixes: [prefix] });
        expect(ids(await take(subscription, 1))).toEqual([wanted.event_id]);
        await subscription.close();
      });

      it('ends a pending iteration when closed', async () => {
        const store = await openStore();
        const subscription = store.subscribeToAll({ streamPrefixes: [`${uniqueName('none')}-`] });
        const pending = subscription[Symbol.asyncIterator]().next();
        await subscription.close();
        expect((await pending).done).toBe(true);
      });

      it('resumes from a checkpoint after the store is closed and reopened', async () => {
        const storage = uniqueName('store');
        const prefix = `${uniqueName('sub')}-`;
        const events = [newEvent(), newEvent(), newEvent()];
        let checkpoint: bigint;
        {
          const store = await open(storage);
          await store.append(`${prefix}a`, events, NO_STREAM);
          const subscription = store.subscribeToAll({ streamPrefixes: [prefix] });
          const handled = await take(subscription, 2);
          checkpoint = handled[1]!.position;
          await subscription.close();
          await store.close();
        }
        const store = await openStore(storage);
        const later = newEvent();
        await store.append(`${prefix}a`, [later], exact(2n));
        const subscription = store.subscribeToAll({ after: checkpoint, streamPrefixes: [prefix] });
        expect(ids(await take(subscription, 2))).toEqual(ids([events[2]!, later]));
        expect(await store.readStream(`${prefix}a`)).toHaveLength(4);
        await subscription.close();
      });
    });
  });
}
