import type { EventStore, RecordedEvent } from '../ports/event-store.ts';
import { sleep } from '../internal/async.ts';

/** How often a replica that does not lead looks at the leader's checkpoint while a request waits on it. */
export const FOLLOW_POLL_MS = 20;
const SCAN_PAGE = 200;

/**
 * How far the leader's work has reached, seen from a replica that does not lead: `checkpoint` (the
 * leader's, or further when an earlier look found more), or further when the events after it up to
 * `target` are ones the leader only skips (a projection of some streams, a process manager of some
 * event types: they save no checkpoint for those). Reads only the events after `checkpoint`.
 */
export async function followerReached(
  eventStore: EventStore,
  checkpoint: bigint,
  target: bigint,
  wanted: (event: RecordedEvent) => boolean,
): Promise<bigint> {
  if (checkpoint >= target) return checkpoint;
  for (let after = checkpoint; ; ) {
    const page = await eventStore.readAll({ after, maxCount: SCAN_PAGE });
    for (const event of page) {
      if (event.position > target) return target;
      // The leader has not applied this one yet: everything before it is as the leader left it.
      if (wanted(event)) return event.position - 1n > checkpoint ? event.position - 1n : checkpoint;
    }
    if (page.length < SCAN_PAGE) return target;
    after = page[page.length - 1]!.position;
  }
}

/**
 * A poll loop that runs only while `step` says there is something to wait for: a follower's
 * `waitFor` kicks it, and it stops by itself once no request waits (or the replica leads).
 */
export class FollowLoop {
  private running = false;
  /** Set by a kick during a step: a waiter added then is looked for too. */
  private kicked = false;

  constructor(
    /** One look; resolves whether to look again. */
    private readonly step: () => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
    private readonly pollMs = FOLLOW_POLL_MS,
  ) {}

  kick(): void {
    this.kicked = true;
    if (this.running) return;
    this.running = true;
    void (async () => {
      try {
        for (;;) {
          let again: boolean;
          this.kicked = false;
          try {
            again = await this.step();
          } catch (error) {
            this.onError(error);
            again = true;
          }
          if (!again && !this.kicked) return;
          await sleep(this.pollMs);
        }
      } finally {
        this.running = false;
      }
    })();
  }
}

/**
 * Requests waiting for a follower (a relay, a process manager) to reach a log position: each resolved
 * once the follower reports a position at or past its own, or refused by its timeout.
 */
export class PositionWaiters {
  private readonly waiting = new Set<{ position: bigint; resolve: () => void }>();

  get size(): number {
    return this.waiting.size;
  }

  /** The furthest position any request waits for (0 when none waits). */
  furthest(): bigint {
    let target = 0n;
    for (const w of this.waiting) if (w.position > target) target = w.position;
    return target;
  }

  /** The follower reached `position`: the requests waiting for it or less are let go. */
  reached(position: bigint): void {
    for (const w of this.waiting) if (w.position <= position) this.waiting.delete(w), w.resolve();
  }

  /** Waits for `position`; after `timeoutMs` (none: no limit) it is refused with `timedOut()`. */
  wait(position: bigint, timeoutMs: number | undefined, timedOut: () => Error): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter = { position, resolve: () => (clearTimeout(timer), resolve()) };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.waiting.delete(waiter);
          reject(timedOut());
        }, timeoutMs);
      }
      this.waiting.add(waiter);
    });
  }

  clear(): void {
    this.waiting.clear();
  }
}
