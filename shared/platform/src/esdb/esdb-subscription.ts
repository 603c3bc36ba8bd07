import type { Readable } from 'node:stream';
import type { Position } from '@kurrent/kurrentdb-client';
import type { RecordedEvent, SubscribeOptions } from '../ports/event-store.ts';
import { backoff, Signal, sleep } from '../internal/async.ts';
import { checkpointPosition, fromResolved, serverPosition, serverPrefixes, type ServerRecord } from './esdb-mapping.ts';
import { SerialSubscription, streamWanted } from '../internal/serial-subscription.ts';

/**
 * One server subscription: the client's `AllStreamSubscription`, a paused object-mode Readable of
 * resolved events (and of the checkpoint marks the adapter pushes into it, see `checkpointMark`).
 */
export type SubscriptionSource = Readable & { unsubscribe(): Promise<void> };

/** Opens a server subscription strictly after `from`, filtered by stream-name prefixes. */
export type OpenSource = (from: Position | 'start', prefixes: string[]) => SubscriptionSource;

const MARK = Symbol('esdb-checkpoint');

/** A checkpoint the server reached, in order with the events around it. */
export interface CheckpointMark {
  [MARK]: true;
  position: Position;
}

/**
 * The item the `checkpointReached` callback pushes into the subscription it is called with. The
 * client calls (and awaits) that callback inside the stream's transform step, after every earlier
 * event was pushed and before any later one, so the mark keeps its place in the order.
 */
export function checkpointMark(position: Position): CheckpointMark {
  return { [MARK]: true, position };
}

const isMark = (item: unknown): item is CheckpointMark => typeof item === 'object' && item !== null && MARK in item;

export interface SubscriptionSettings {
  namespace: string;
  openSource: OpenSource;
  /** First and largest pause before resubscribing after a drop (ms). */
  retryInitialMs: number;
  retryMaxMs: number;
  /** Told about every drop before the pause; the subscription resubscribes whatever it returns. */
  onDrop?: (error: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Catch-up subscription to the namespace's part of $all that survives connection loss.
 *
 * The client does not resubscribe by itself: after any error or end the source is dropped and, after
 * an exponential pause (capped), a new one starts strictly after `after`, the last position handed
 * out (an event, or a checkpoint the consumer was told about). What the old source had buffered is
 * simply read again. Pull semantics: the source is a paused Readable whose buffer is bounded by its
 * highWaterMark; when it is full the client stops reading the gRPC stream and HTTP/2 flow control
 * stops the server, so nothing is produced faster than the consumer asks.
 */
export class EsdbSubscription extends SerialSubscription {
  private source: SubscriptionSource | undefined;
  private failure: { error: unknown } | undefined;
  private ended = false;
  /** An item read from the source by `takeBuffered` and not handed out (a mark, or an event that failed to convert). */
  private held: unknown;
  private attempt = 0;
  private readonly wake = new Signal();

  constructor(
    private readonly settings: SubscriptionSettings,
    options: SubscribeOptions,
    onClose: () => void,
  ) {
    super(options, onClose);
  }

  protected async produce(): Promise<IteratorResult<RecordedEvent>> {
    while (!this.stop.signal.aborted) {
      const item = this.take();
      if (item === null) {
        if (this.failure || this.ended) {
          await this.resubscribe();
        } else if (!this.source) {
          this.open();
        } else {
          // Registered before anything else runs: a 'readable' cannot slip in between read() and here.
          await this.wake.wait(undefined, this.stop.signal);
        }
        continue;
      }
      if (isMark(item)) {
        const position = checkpointPosition(item.position);
        if (position > this.after) {
          this.after = position;
          // The consumer asked for the next event: it has handled everything before this mark.
          await this.options.onCheckpoint?.(position);
        }
        continue;
      }
      let event: RecordedEvent | null;
      try {
        event = this.convert(item);
      } catch (error) {
        // Never skipped silently: every later call meets the same event and the same error.
        this.held = item;
        throw error;
      }
      if (event) return { done: false, value: event };
    }
    return { done: true, value: undefined };
  }

  /** The held item, else the next buffered item of the source, else null. */
  private take(): unknown {
    if (this.held !== undefined) {
      const item = this.held;
      this.held = undefined;
      return item;
    }
    if (!this.source || this.failure) return null;
    return this.source.read() ?? null;
  }

  /** The event to hand out, or null for one to pass over; advances `after` either way. */
  private convert(item: unknown): RecordedEvent | null {
    const converted = fromResolved(this.settings.namespace, item as { event?: ServerRecord });
    if (!converted) return null;
    const event = converted.event;
    if (event.position <= this.after) return null;
    this.after = event.position;
    return streamWanted(this.options.streamPrefixes, event.stream) ? event : null;
  }

  takeBuffered(max: number): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    while (events.length < max && !this.stop.signal.aborted) {
      const item = this.take();
      if (item === null) break;
      // A mark waits for the consumer's next call, which is when everything before it is handled.
      if (isMark(item)) {
        this.held = item;
        break;
      }
      let event: RecordedEvent | null;
      try {
        event = this.convert(item);
      } catch {
        // Thrown again, to the consumer, by its next call.
        this.held = item;
        break;
      }
      if (event) events.push(event);
    }
    return events;
  }

  private open(): void {
    const prefixes = serverPrefixes(this.settings.namespace, this.options.streamPrefixes);
    const source = this.settings.openSource(serverPosition(this.after), prefixes);
    this.source = source;
    this.failure = undefined;
    this.ended = false;
    const wake = () => this.wake.notify();
    source.on('readable', wake);
    source.on('confirmation', () => {
      this.attempt = 0;
    });
    source.on('error', (error: unknown) => {
      if (this.source === source) this.failure = { error };
      wake();
    });
    const end = () => {
      if (this.source === source) this.ended = true;
      wake();
    };
    source.on('end', end);
    source.on('close', end);
  }

  private async resubscribe(): Promise<void> {
    const error = this.failure ? this.failure.error : new Error('the server ended the subscription');
    this.dropSource();
    const delay = backoff(this.attempt, this.settings.retryInitialMs, this.settings.retryMaxMs);
    this.attempt++;
    this.settings.onDrop?.(error, this.attempt, delay);
    await sleep(delay, this.stop.signal);
  }

  private dropSource(): void {
    const source = this.source;
    this.source = undefined;
    this.failure = undefined;
    this.ended = false;
    this.held = undefined;
    if (!source) return;
    source.removeAllListeners();
    // A late error of a dropped source must not become an unhandled 'error' event.
    source.on('error', () => undefined);
    void source
      .unsubscribe()
      .catch(() => undefined)
      .finally(() => source.destroy());
  }

  protected release(): void {
    this.dropSource();
    this.wake.notify();
  }
}
