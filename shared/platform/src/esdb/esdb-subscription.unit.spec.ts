import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Position } from '@kurrent/kurrentdb-client';
import type { NewEvent, RecordedEvent, SubscribeOptions } from '../ports/event-store.ts';
import { newEvent } from '../testing/contract-helpers.ts';
import { eventPosition, toEventData } from './esdb-mapping.ts';
import { checkpointMark, EsdbSubscription, type SubscriptionSource } from './esdb-subscription.ts';

/**
 * The subscription's own logic (ordering of checkpoint marks, resubscription, pull semantics) over a
 * scripted source: an object-mode stream standing in for one server subscription, fed by the test.
 * What the server sends is not simulated; the adapter suite runs that against a real server.
 */
interface Opened {
  from: Position | 'start';
  prefixes: string[];
  source: SubscriptionSource & PassThrough;
  unsubscribed: boolean;
}

const NS = 'ns';

function harness(options: SubscribeOptions = {}) {
  const opened: Opened[] = [];
  const drops: Array<{ attempt: number; delayMs: number; error: unknown }> = [];
  const subscription = new EsdbSubscription(
    {
      namespace: NS,
      retryInitialMs: 1,
      retryMaxMs: 4,
      onDrop: (error, attempt, delayMs) => drops.push({ error, attempt, delayMs }),
      openSource: (from, prefixes) => {
        const entry = { from, prefixes, unsubscribed: false } as Opened;
        const source = Object.assign(new PassThrough({ objectMode: true, highWaterMark: 4 }), {
          unsubscribe: async () => {
            entry.unsubscribed = true;
          },
        });
        entry.source = source;
        opened.push(entry);
        return source;
      },
    },
    options,
    () => undefined,
  );
  return { subscription, opened, drops, iterator: subscription[Symbol.asyncIterator]() };
}

/** What the client yields for an event the adapter wrote at log offset `offset`. */
function serverEvent(stream: string, event: NewEvent, revision: bigint, offset: bigint, namespace = NS) {
  const written = toEventData(stream, event);
  return {
    event: {
      streamId: `${namespace}-${stream}`,
      id: written.id,
      type: written.type,
      isJson: true,
      revision,
      data: written.data,
      metadata: written.metadata,
      position: { commit: offset, prepare: offset },
      created: new Date(0),
    },
  };
}

const nextEvent = async (iterator: AsyncIterator<RecordedEvent>) => (await iterator.next()).value as RecordedEvent;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The source is opened when the consumer's first call runs, a few microtasks after the call. */
async function started(h: { opened: Opened[] }, count = 1) {
  for (let i = 0; i < 100 && h.opened.length < count; i++) await tick();
  expect(h.opened).toHaveLength(count);
}

describe('esdb subscription', () => {
  const open: EsdbSubscription[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it("hands out the namespace's events in order and passes over links, system events and other streams", async () => {
    const h = harness({ streamPrefixes: ['estate-'] });
    open.push(h.subscription);
    const pending = h.iterator.next();
    await started(h);
    expect(h.opened).toHaveLength(1);
    expect(h.opened[0]!.from).toBe('start');
    expect(h.opened[0]!.prefixes).toEqual(['ns-estate-']);
    const [a, b] = [newEvent(), newEvent()];
    const source = h.opened[0]!.source;
    source.write({});
    source.write(serverEvent('estate-1', a, 0n, 100n));
    source.write({ event: { ...serverEvent('estate-1', newEvent(), 1n, 200n).event, type: '$metadata' } });
    source.write(serverEvent('user-1', newEvent(), 0n, 300n));
    source.write(serverEvent('estate-2', b, 0n, 400n));
    expect((await pending).value).toMatchObject({ event_id: a.event_id, stream: 'estate-1', position: 201n });
    expect(await nextEvent(h.iterator)).toMatchObject({ event_id: b.event_id, stream: 'estate-2', position: 801n });
  });

  it('reports a checkpoint only when the consumer asks for the event after it', async () => {
    const reported: bigint[] = [];
    const h = harness({ onCheckpoint: (position) => void reported.push(position) });
    open.push(h.subscription);
    const pending = h.iterator.next();
    await started(h);
    const source = h.opened[0]!.source;
    const [a, b] = [newEvent(), newEvent()];
    source.write(serverEvent('s', a, 0n, 100n));
    source.write(checkpointMark({ commit: 5_000n, prepare: 0n }));
    source.write(checkpointMark({ commit: 4_000n, prepare: 0n }));
    source.write(serverEvent('s', b, 1n, 6_000n));
    expect((await pending).value?.event_id).toBe(a.event_id);
    // The consumer is still handling `a`: the mark behind it must not be reported yet.
    await tick();
    expect(reported).toEqual([]);
    expect((await h.iterator.next()).value?.event_id).toBe(b.event_id);
    // The older mark is not reported: it does not advance.
    expect(reported).toEqual([10_000n]);
  });

  it('resubscribes after an error or an end, from the last position handed out, with growing pauses', async () => {
    const h = harness();
    open.push(h.subscription);
    const [a, b, c] = [newEvent(), newEvent(), newEvent()];
    const first = h.iterator.next();
    await started(h);
    h.opened[0]!.source.write(serverEvent('s', a, 0n, 100n));
    expect((await first).value?.event_id).toBe(a.event_id);
    h.opened[0]!.source.destroy(new Error('14 UNAVAILABLE: connection dropped'));
    const second = h.iterator.next();
    await started(h, 2);
    expect(h.opened[0]!.unsubscribed).toBe(true);
    expect(h.opened[1]!.from).toEqual({ commit: 100n, prepare: 100n });
    // Should the server send the event at the position again, it is still handed out once.
    h.opened[1]!.source.write(serverEvent('s', a, 0n, 100n));
    h.opened[1]!.source.write(serverEvent('s', b, 1n, 200n));
    expect((await second).value?.event_id).toBe(b.event_id);
    h.opened[1]!.source.end();
    const third = h.iterator.next();
    await started(h, 3);
    expect(h.opened[2]!.from).toEqual({ commit: 200n, prepare: 200n });
    h.opened[2]!.source.write(serverEvent('s', c, 2n, 300n));
    expect((await third).value?.event_id).toBe(c.event_id);
    expect(h.drops.map((d) => [d.attempt, d.delayMs])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect((h.drops[0]!.error as Error).message).toMatch(/connection dropped/);
    expect((h.drops[1]!.error as Error).message).toMatch(/ended the subscription/);
  });

  it('starts again from a reported checkpoint, and resets its pauses once the server confirms', async () => {
    const h = harness({ after: eventPosition({ commit: 100n, prepare: 100n }) });
    open.push(h.subscription);
    const pending = h.iterator.next();
    await started(h);
    expect(h.opened[0]!.from).toEqual({ commit: 100n, prepare: 100n });
    h.opened[0]!.source.write(checkpointMark({ commit: 9_000n, prepare: 0n }));
    await tick();
    h.opened[0]!.source.emit('error', new Error('dropped'));
    await started(h, 2);
    expect(h.opened[1]!.from).toEqual({ commit: 9_000n, prepare: 0n });
    h.opened[1]!.source.emit('confirmation');
    h.opened[1]!.source.emit('error', new Error('dropped again'));
    await started(h, 3);
    expect(h.drops.map((d) => d.attempt)).toEqual([1, 1]);
    const event = newEvent();
    h.opened[2]!.source.write(serverEvent('s', event, 0n, 9_000n));
    expect((await pending).value?.event_id).toBe(event.event_id);
  });

  it('reads only as far as the consumer asks (the source keeps the rest, bounded)', async () => {
    const h = harness();
    open.push(h.subscription);
    const pending = h.iterator.next();
    await started(h);
    const source = h.opened[0]!.source;
    const accepted = Array.from({ length: 12 }, (_, i) => source.write(serverEvent('s', newEvent(), BigInt(i), BigInt(100 + i * 100))));
    await pending;
    // The source said "stop" at its highWaterMark, and still holds what the consumer did not ask for.
    expect(accepted.includes(false)).toBe(true);
    expect(source.readableLength + source.writableLength).toBeGreaterThanOrEqual(10);
  });

  it('takes buffered events up to the next checkpoint mark, which waits for the next call', async () => {
    const reported: bigint[] = [];
    const h = harness({ onCheckpoint: (p) => void reported.push(p) });
    open.push(h.subscription);
    const pending = h.iterator.next();
    await started(h);
    const source = h.opened[0]!.source;
    const events = [newEvent(), newEvent(), newEvent(), newEvent()];
    source.write(serverEvent('s', events[0]!, 0n, 100n));
    source.write(serverEvent('s', events[1]!, 1n, 200n));
    source.write(serverEvent('s', events[2]!, 2n, 300n));
    source.write(checkpointMark({ commit: 350n, prepare: 0n }));
    source.write(serverEvent('s', events[3]!, 3n, 400n));
    expect((await pending).value?.event_id).toBe(events[0]!.event_id);
    await tick();
    expect(h.subscription.takeBuffered(10).map((e) => e.event_id)).toEqual([events[1]!.event_id, events[2]!.event_id]);
    expect(h.subscription.takeBuffered(10)).toEqual([]);
    expect(reported).toEqual([]);
    expect((await h.iterator.next()).value?.event_id).toBe(events[3]!.event_id);
    expect(reported).toEqual([700n]);
  });

  it('meets an event it cannot read with the same error on every call, never skipping it', async () => {
    const h = harness();
    open.push(h.subscription);
    const pending = h.iterator.next();
    await started(h);
    const bad = serverEvent('s', newEvent(), 0n, 100n);
    h.opened[0]!.source.write({ event: { ...bad.event, metadata: { from: 'another writer' } } });
    await expect(pending).rejects.toThrow(/not written by the Renopath adapter/);
    await expect(h.iterator.next()).rejects.toThrow(/not written by the Renopath adapter/);
  });

  it('ends a pending call when closed, and drops its source', async () => {
    const h = harness();
    const pending = h.iterator.next();
    await started(h);
    await h.subscription.close();
    expect((await pending).done).toBe(true);
    expect(h.opened[0]!.unsubscribed).toBe(true);
    expect((await h.iterator.next()).done).toBe(true);
    expect(h.subscription.takeBuffered(5)).toEqual([]);
  });
});
