import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../memory/memory-bus.ts';
import type { EventEnvelope } from '../ports/bus.ts';
import { NO_STREAM, type CheckpointStore, type EventStore } from '../ports/event-store.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { startRelay } from './relay.ts';

describe('relay', () => {
  it('closes at once while it is backing off after failures, not when the backoff ends', async () => {
    let loads = 0;
    // A checkpoint store that is down: every attempt fails and the backoff doubles (100, 200, 400, 800, 1600 ms ...).
    const checkpoints: CheckpointStore = {
      load: async () => {
        loads += 1;
        throw new Error('checkpoint store unavailable');
      },
      save: async () => undefined,
    } as unknown as CheckpointStore;
    const bus = createMemoryBus();
    const relay = startRelay({ context: 'test', eventStore: {} as EventStore, checkpoints, bus, log: pino({ level: 'silent' }) });
    while (loads < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    // Now in a backoff of about 1.6 s.
    const started = Date.now();
    await relay.close();
    expect(Date.now() - started).toBeLessThan(800);
    await bus.close();
  });
});

describe('relay on a bus that keeps nothing across restarts', () => {
  it('publishes the whole log again at start, so consumers that missed events before a crash see them', async () => {
    const store = openSqliteEventStore({ file: ':memory:' });
    for (const n of [1, 2, 3]) {
      await store.append(
        `thing-${n}`,
        [
          {
            event_id: randomUUID(),
            type: 'ThingMade',
            data: { n },
            metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
            occurred_at: new Date().toISOString(),
          },
        ],
        NO_STREAM,
      );
    }
    // The checkpoint says everything was published (by the process that died).
    await store.checkpoints.save('relay-test', 3n);
    const seen = async (retainsEvents: boolean) => {
      const bus = Object.assign(createMemoryBus(), { retainsEvents });
      const got: number[] = [];
      await bus.consume('c', { subjects: ['evt.test.>'] }, async (e) => void got.push(Number(e.data['n'])));
      const relay = startRelay({ context: 'test', eventStore: store, checkpoints: store.checkpoints, bus, log: pino({ level: 'silent' }) });
      await relay.waitFor(3n, 2_000).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      await relay.close();
      await bus.close();
      return got;
    };
    expect(await seen(false)).toEqual([1, 2, 3]);
    // A bus that keeps its events (JetStream) resumes from the checkpoint: nothing again.
    expect(await seen(true)).toEqual([]);
    await store.close();
  });
});

describe('relay checkpoint', () => {
  it('follows a burst of events with a few saves, never past what is on the bus, and is current once closed', async () => {
    const store = openSqliteEventStore({ file: ':memory:' });
    const saves: bigint[] = [];
    const onTheBus = new Set<bigint>();
    const checkpoints: CheckpointStore = {
      load: (consumer) => store.checkpoints.load(consumer),
      save: async (consumer, position) => {
        saves.push(position);
        await new Promise((r) => setTimeout(r, 5));
        await store.checkpoints.save(consumer, position);
      },
    };
    const memory = Object.assign(createMemoryBus(), { retainsEvents: true });
    const bus = Object.assign(Object.create(memory) as typeof memory, {
      publish: async (subject: string, envelope: EventEnvelope) => {
        await memory.publish(subject, envelope);
        onTheBus.add(BigInt(envelope.position));
      },
    });
    const relay = startRelay({ context: 'test', eventStore: store, checkpoints, bus, log: pino({ level: 'silent' }) });
    const event = (n: number) => ({
      event_id: randomUUID(),
      type: 'ThingMade',
      data: { n },
      metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
      occurred_at: new Date().toISOString(),
    });
    await Promise.all(Array.from({ length: 100 }, (_, n) => store.append(`thing-${n}`, [event(n)], NO_STREAM)));
    await relay.waitFor(100n, 5_000);
    await relay.close();
    expect(await store.checkpoints.load('relay-test')).toBe(100n);
    expect(saves.every((position) => onTheBus.has(position))).toBe(true);
    expect(saves.length).toBeLessThan(20);
    expect(saves).toEqual([...saves].sort((a, b) => Number(a - b)));
    await memory.close();
    await store.close();
  });
});
