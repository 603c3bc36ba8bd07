import type { RecordedEvent, SubscribeOptions, Subscription } from '../ports/event-store.ts';

/**
 * What every store's subscription shares: an async iterator whose `next()` calls are served one
 * after another (a caller that does not await still gets events one at a time, in order), and whose
 * `return()` closes the subscription; the position it has reached, and its closing. A store writes
 * only how the next event is produced, and what it lets go of on closing.
 */
export abstract class SerialSubscription implements Subscription {
  private queue: Promise<unknown> = Promise.resolve();
  /** The last position read past: the subscription goes on strictly after it. */
  protected after: bigint;
  /** Aborted on closing: `produce` ends, and so does any wait in it. */
  protected readonly stop = new AbortController();

  constructor(
    protected readonly options: SubscribeOptions,
    /** Tells the store the subscription is closed. */
    private readonly onClose: () => void,
  ) {
    this.after = options.after ?? 0n;
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  next(): Promise<IteratorResult<RecordedEvent>> {
    const result = this.queue.then(() => this.produce());
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The next event, or done once closed; called only after the previous call settled. */
  protected abstract produce(): Promise<IteratorResult<RecordedEvent>>;

  /** On closing, after `stop` is aborted: lets go of what the subscription holds (buffered events, a server stream). */
  protected abstract release(): void;

  async close(): Promise<void> {
    if (this.stop.signal.aborted) return;
    this.stop.abort();
    this.release();
    this.onClose();
  }
}

/** Whether a subscription that names stream prefixes wants events of `stream` (none named: every stream). */
export const streamWanted = (prefixes: readonly string[] | undefined, stream: string): boolean =>
  !prefixes || prefixes.some((prefix) => stream.startsWith(prefix));
