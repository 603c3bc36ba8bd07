import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../memory/memory-bus.ts';
import type { CheckpointStore, EventStore } from '../ports/event-store.ts';
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
