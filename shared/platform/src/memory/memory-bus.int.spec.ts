import { describe, expect, it, vi } from 'vitest';
import { busContract } from '../testing/bus.contract.ts';
import { createMemoryBus } from './memory-bus.ts';

busContract('memory', async () => createMemoryBus({ redelivery: { initialDelayMs: 10, maxDelayMs: 50 } }));

describe('MemoryBus', () => {
  it('keeps the failing handler’s error as the cause, for in-process debugging', async () => {
    const bus = createMemoryBus();
    const failure = new Error('boom');
    await bus.handle('cmd.test.Fail', async () => {
      throw failure;
    });
    await expect(bus.request('cmd.test.Fail', {})).rejects.toMatchObject({ cause: failure });
    await bus.close();
  });

  it('refuses a second active consumer with the same name', async () => {
    const bus = createMemoryBus();
    await bus.consume('projector', { subjects: ['evt.>'] }, async () => {});
    await expect(bus.consume('projector', { subjects: ['evt.>'] }, async () => {})).rejects.toThrow(/already consuming/);
    await bus.close();
  });
  it('handles up to inFlight events side by side, so one that waits does not hold up the others', async () => {
    const bus = createMemoryBus();
    let active = 0;
    let mostActive = 0;
    let handled = 0;
    const consumer = await bus.consume('side-by-side', { subjects: ['evt.side.>'], inFlight: 3 }, async () => {
      active += 1;
      mostActive = Math.max(mostActive, active);
      await new Promise((resolve) => setTimeout(resolve, 20));
      active -= 1;
      handled += 1;
    });
    for (let i = 0; i < 6; i++) {
      await bus.publish('evt.side.A', {
        context: 'side',
        event_id: `side-${i}`,
        type: 'A',
        stream: `s-${i}`,
        revision: 0,
        position: i + 1,
        occurred_at: '2026-01-01T00:00:00.000Z',
        data: {},
        metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
      });
    }
    await vi.waitFor(() => expect(handled).toBe(6), { timeout: 5_000, interval: 10 });
    expect(mostActive).toBe(3);
    await consumer.close();
    await bus.close();
  });
});
