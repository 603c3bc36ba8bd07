/** Small async primitives shared by the adapters. */

/** Resolves after `ms`, or at once when `abort` fires (never rejects). */
export function sleep(ms: number, abort?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (abort?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      abort?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    abort?.addEventListener('abort', done, { once: true });
  });
}

/** Exponential backoff: `initialMs * 2^attempt`, capped at `maxMs`. */
export function backoff(attempt: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
}

/** Runs critical sections one after another, in call order. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

/** A level-free wake-up call: `notify()` resolves every current `wait()`. */
export class Signal {
  private readonly waiters = new Set<() => void>();

  notify(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next `notify()`, after `timeoutMs` (if given), or when `abort` fires. */
  wait(timeoutMs?: number, abort?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (abort?.aborted) return resolve();
      const wake = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        if (abort) abortWaiters.get(abort)?.delete(wake);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(wake, timeoutMs);
      if (abort) onAbort(abort, wake);
      this.waiters.add(wake);
    });
  }
}

/**
 * Who waits on an AbortSignal through `Signal.wait`, behind one listener per signal: a consumer
 * waits once per event it is woken for, and adding and removing an event listener each time was a
 * visible share of an embedded job's CPU (EventTarget bookkeeping is far dearer than a Set's).
 */
const abortWaiters = new WeakMap<AbortSignal, Set<() => void>>();
function onAbort(abort: AbortSignal, wake: () => void): void {
  let waiters = abortWaiters.get(abort);
  if (!waiters) {
    const set = (waiters = new Set());
    abortWaiters.set(abort, set);
    abort.addEventListener(
      'abort',
      () => {
        for (const w of [...set]) w();
        set.clear();
      },
      { once: true },
    );
  }
  waiters.add(wake);
}
