import { describe, expect, it } from 'vitest';
import { busContract } from '../testing/bus.contract.ts';
import { createMemoryBus } from './memory-bus.ts';

busContract('memory', async () => createMemoryBus({ redelivery: { initialDelayMs: 10, maxDelayMs: 50 } }), { inFlight: true });

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
});
