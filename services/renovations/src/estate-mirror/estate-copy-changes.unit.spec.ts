import { describe, expect, it } from 'vitest';
import { EstateCopyChanges } from './estate-copy-changes.ts';

const settledWithin = async (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('EstateCopyChanges: a wait for an estate copy ends at its write', () => {
  it('wakes the waiters on the estate written, and only those', async () => {
    const changes = new EstateCopyChanges();
    const onA = changes.next('estate-a', 60_000);
    const onB = changes.next('estate-b', 60_000);
    changes.changed('estate-a');
    expect(await settledWithin(onA, 1_000)).toBe(true);
    expect(await settledWithin(onB, 50)).toBe(false);
  });

  it('still looks again after its bound when no write comes (another replica wrote the copy)', async () => {
    const changes = new EstateCopyChanges();
    expect(await settledWithin(changes.next('estate-a', 20), 1_000)).toBe(true);
  });

  it('keeps no waiter once it has settled, so a later write wakes nobody stale', async () => {
    const changes = new EstateCopyChanges();
    await changes.next('estate-a', 5);
    const waiting = (changes as unknown as { waiting: Map<string, unknown> }).waiting;
    expect(waiting.size).toBe(0);
    const again = changes.next('estate-a', 60_000);
    changes.changed('estate-a');
    await again;
    expect(waiting.size).toBe(0);
  });
});
