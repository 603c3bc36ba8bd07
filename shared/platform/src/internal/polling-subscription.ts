import type { RecordedEvent, SubscribeOptions } from '../ports/event-store.ts';
import { SerialSubscription, streamWanted } from './serial-subscription.ts';

/** Where a polling subscription reads its store's log, and how it is woken. */
export interface PollSource<Row> {
  /** Up to a batch of rows after `after`, in position order (synchronous where the store reads so). */
  readAfter(after: bigint): Row[] | Promise<Row[]>;
  /** A row as an event, made only once it is handed out. */
  toEvent(row: Row): RecordedEvent;
  /** A count that moves with each append announced: one that moved during a read means look again at once. */
  wakeups(): number;
  /** Resolves at the next append announced, a poll tick, or the abort. */
  wait(abort: AbortSignal): Promise<void>;
}

/**
 * Catch-up then live, the SQLite and PostgreSQL stores' subscription: reads batches after its last
 * position, hands out the rows of the streams it wants, and sleeps until an append or a poll tick.
 */
export class PollingSubscription<Row extends { position: bigint; stream: string }> extends SerialSubscription {
  /** The rows last read, handed out from `nextRow` on. */
  private rows: Row[] = [];
  private nextRow = 0;

  constructor(
    private readonly source: PollSource<Row>,
    options: SubscribeOptions,
    onClose: () => void,
  ) {
    super(options, onClose);
  }

  protected async produce(): Promise<IteratorResult<RecordedEvent>> {
    while (!this.stop.signal.aborted) {
      const event = this.nextEvent();
      if (event) return { done: false, value: event };
      const seen = this.source.wakeups();
      const batch = await this.read();
      // Closed while the read was handed back: a wait now would never be woken.
      if (batch === null || this.stop.signal.aborted) break;
      if (batch.length > 0) {
        this.after = batch[batch.length - 1]!.position;
        this.rows = batch;
        this.nextRow = 0;
        continue;
      }
      // An append announced while we were reading may not be in this batch: look again at once.
      if (this.source.wakeups() !== seen) continue;
      await this.source.wait(this.stop.signal);
    }
    return { done: true, value: undefined };
  }

  /** The next batch, or null once closed (closing may end the store's connection under a running read: no failure). */
  private async read(): Promise<Row[] | null> {
    let batch: Row[];
    try {
      const read = this.source.readAfter(this.after);
      batch = read instanceof Promise ? await read : read;
    } catch (error) {
      if (this.stop.signal.aborted) return null;
      throw error;
    }
    return this.stop.signal.aborted ? null : batch;
  }

  /** The next wanted row read and not yet handed out, as an event; undefined when there is none (or closed). */
  private nextEvent(): RecordedEvent | undefined {
    while (!this.stop.signal.aborted && this.nextRow < this.rows.length) {
      const row = this.rows[this.nextRow++]!;
      // Filtered on the row: a subscriber with prefixes builds no event for other streams.
      if (streamWanted(this.options.streamPrefixes, row.stream)) return this.source.toEvent(row);
    }
    return undefined;
  }

  takeBuffered(max: number): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    for (let event; events.length < max && (event = this.nextEvent()); ) events.push(event);
    return events;
  }

  protected release(): void {
    this.rows = [];
    this.nextRow = 0;
  }
}
