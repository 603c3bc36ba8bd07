import { describe, expect, it } from 'vitest';
import type { ReadStore } from '@renopath/platform';
import { WorkQueue } from './work-queue.ts';

// The in-memory line between an append and a waiting claim; the sweep (which reads the store) is not used here.
const queue = () => new WorkQueue({} as ReadStore);
const pending = Symbol('pending');
/** What a claim has resolved with by now, or `pending`. */
const peek = async <T>(p: Promise<T>) => Promise.race([p, new Promise<typeof pending>((r) => setImmediate(() => r(pending)))]);

describe('work queue', () => {
  it('hands a pushed job to one waiting claim, oldest first, and the others keep waiting', async () => {
    const q = queue();
    const first = q.next(5_000);
    const second = q.next(5_000);
    q.push('job-1');
    expect(await peek(first)).toBe('job-1');
    expect(await peek(second)).toBe(pending);
    q.push('job-2');
    expect(await peek(second)).toBe('job-2');
    q.close();
  });

  it('keeps jobs pushed while no one waits, in order, once each', async () => {
    const q = queue();
    q.push('job-1');
    q.push('job-2');
    q.push('job-1');
    expect(await q.next(0)).toBe('job-1');
    expect(await q.next(0)).toBe('job-2');
    expect(await q.next(0)).toBeNull();
  });

  it('answers null when the wait runs out, and a claim that gave up takes no later job', async () => {
    const q = queue();
    expect(await q.next(5)).toBeNull();
    const stop = new AbortController();
    const aborted = q.next(5_000, stop.signal);
    stop.abort();
    expect(await aborted).toBeNull();
    q.push('job-1');
    expect(await q.next(0)).toBe('job-1');
  });

  it('answers every waiting claim with null when closed', async () => {
    const q = queue();
    const waiting = [q.next(5_000), q.next(5_000)];
    q.close();
    expect(await Promise.all(waiting)).toEqual([null, null]);
    expect(await q.next(5_000)).toBeNull();
  });
});
