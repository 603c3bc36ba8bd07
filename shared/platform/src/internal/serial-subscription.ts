import type { RecordedEvent, Subscription } from '../ports/event-store.ts';

/**
 * What every store's subscription shares: an async iterator whose `next()` calls are served one
 * after another (a caller that does not await still gets events one at a time, in order), and whose
 * `return()` closes the subscription. A store writes only how the next event is produced.
 */
export abstract class SerialSubscription implements Subscription {
  private queue: Promise<unknown> = Promise.resolve();

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

  abstract close(): Promise<void>;
}

/** Whether a subscription that names stream prefixes wants events of `stream` (none named: every stream). */
export const streamWanted = (prefixes: readonly string[] | undefined, stream: string): boolean =>
  !prefixes || prefixes.some((prefix) => stream.startsWith(prefix));
