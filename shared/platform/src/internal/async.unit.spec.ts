import { describe, expect, it } from 'vitest';
import { Signal } from './async.ts';

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('Signal', () => {
  it('wakes every waiter on notify, and only those waiting then', async () => {
    const signal = new Signal();
    const a = signal.wait();
    const b = signal.wait(60_000);
    signal.notify();
    expect([await settled(a), await settled(b)]).toEqual([true, true]);
    const c = signal.wait();
    expect(await settled(c)).toBe(false);
    signal.notify();
    expect(await settled(c)).toBe(true);
  });

  it('wakes after its timeout', async () => {
    const signal = new Signal();
    const started = Date.now();
    await signal.wait(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('wakes every waiter of one AbortSignal when it fires, across several signals, and at once if it already fired', async () => {
    const stop = new AbortController();
    const one = new Signal();
    const two = new Signal();
    const notified = one.wait(undefined, stop.signal);
    one.notify();
    expect(await settled(notified)).toBe(true);
    const waits = [one.wait(undefined, stop.signal), one.wait(undefined, stop.signal), two.wait(60_000, stop.signal)];
    expect(await settled(Promise.all(waits))).toBe(false);
    stop.abort();
    expect(await settled(Promise.all(waits))).toBe(true);
    expect(await settled(one.wait(undefined, stop.signal))).toBe(true);
  });
});
