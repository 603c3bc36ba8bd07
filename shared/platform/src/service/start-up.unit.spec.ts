import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { untilAvailable } from './start-up.ts';

describe('untilAvailable', () => {
  it('retries what is missing until it answers, and gives up only when the process stops', async () => {
    let tries = 0;
    const log = pino({ level: 'silent' });
    const value = await untilAvailable(
      'a peer',
      async () => {
        tries += 1;
        if (tries < 3) throw new Error('not yet');
        return 'up';
      },
      log,
      { initialDelayMs: 1 },
    );
    expect([value, tries]).toEqual(['up', 3]);

    const stop = new AbortController();
    const never = untilAvailable(
      'a peer that never comes',
      async () => {
        stop.abort();
        throw new Error('still down');
      },
      log,
      { initialDelayMs: 1, stop: stop.signal },
    );
    await expect(never).rejects.toThrow('still down');
  });
});
