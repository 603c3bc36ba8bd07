import type { Logger } from 'pino';
import { contextsAffectedBy } from '@renopath/contracts';
import { BusUnavailableError, type Bus, type Closeable, type EventEnvelope } from '../ports/bus.ts';
import type { EventStore, RecordedEvent } from '../ports/event-store.ts';
import { sleep } from '../internal/async.ts';
import type { Relay } from './relay.ts';

/**
 * Read your writes across contexts (docs/architecture.md, "A write, end to end", step 5).
 *
 * Every context answers `qry.<context>.settle { correlation_id, after }`, where `after` maps origin
 * contexts to the global positions of their events for that request. It answers once
 *   1. everything it has appended so far is on the bus (its relay caught up),
 *   2. each of its reactors that listens to one of those origins has handled the origin's events up to
 *      that position (it handled a later one, or it has nothing left to handle), and what the reactors
 *      appended is on the bus too,
 * with the position of its own last event for that correlation id (or null). The gateway asks the
 * contexts the write can reach (`contextsToSettle`: its own, those consuming its events, transitively),
 * adds the positions it learns to `after`, and asks again until no new position appears: then every
 * effect of the request, cascades of cascades included, is readable.
 */
export interface SettleQuery {
  correlation_id: string;
  after: Record<string, number>;
  timeout_ms: number;
}
export interface SettleReply {
  position: number | null;
  /** False when the bound passed before every reactor caught up. */
  complete: boolean;
}

export const settleSubject = (context: string) => `qry.${context}.settle`;

/** How long a correlation id's last position is remembered: far beyond any settle bound. */
const REMEMBER_MS = 10 * 60_000;
const REMEMBER_MAX = 100_000;

export class Settlement {
  private readonly lastByCorrelation = new Map<string, { position: number; at: number }>();
  private readonly reactors = new Map<string, { origins: Set<string>; handled: Map<string, number> }>();
  private relay: Relay | null = null;

  constructor(private readonly options: { context: string; bus: Bus; eventStore: EventStore; log: Logger; now?: () => number }) {}

  /** The relay calls this for each event it has put on the bus. */
  readonly onPublished = (event: RecordedEvent): void => {
    const now = (this.options.now ?? Date.now)();
    if (this.lastByCorrelation.size >= REMEMBER_MAX) this.forgetOlderThan(now - REMEMBER_MS);
    this.lastByCorrelation.set(event.metadata.correlation_id, { position: Number(event.position), at: now });
  };

  attach(relay: Relay): void {
    this.relay = relay;
  }

  /** Declares a durable consumer of other contexts' events; call `handled(event)` after each one. */
  reactor(consumer: string, origins: string[]) {
    const state = { origins: new Set(origins), handled: new Map<string, number>() };
    this.reactors.set(consumer, state);
    return {
      handled: (event: EventEnvelope) => {
        state.handled.set(event.context, Math.max(state.handled.get(event.context) ?? 0, event.position));
      },
    };
  }

  serve(): Promise<Closeable> {
    return this.options.bus.handle(settleSubject(this.options.context), async (payload) => this.settle(payload as SettleQuery));
  }

  async settle(query: SettleQuery): Promise<SettleReply> {
    const deadline = Date.now() + Math.max(0, query.timeout_ms);
    const position = () => this.lastByCorrelation.get(query.correlation_id)?.position ?? null;
    if (!(await this.ownEventsPublished(deadline))) return { position: position(), complete: false };
    let waited = false;
    for (const [consumer, state] of this.reactors) {
      for (const [origin, after] of Object.entries(query.after)) {
        if (origin === this.options.context || !state.origins.has(origin)) continue;
        if (!(await this.reactorReached(consumer, state, origin, after, deadline))) return { position: position(), complete: false };
        waited = true;
      }
    }
    // What the reactors appended must be on the bus before other contexts are asked about it.
    const complete = waited ? await this.ownEventsPublished(deadline) : true;
    return { position: position(), complete };
  }

  private async ownEventsPublished(deadline: number): Promise<boolean> {
    if (!this.relay) return true;
    const head = await this.options.eventStore.headPosition();
    try {
      await this.relay.waitFor(head, Math.max(1, deadline - Date.now()));
      return true;
    } catch {
      return false;
    }
  }

  private async reactorReached(
    consumer: string,
    state: { handled: Map<string, number> },
    origin: string,
    position: number,
    deadline: number,
  ): Promise<boolean> {
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      if ((state.handled.get(origin) ?? 0) >= position) return true;
      if (await this.options.bus.isCaughtUp(consumer)) return true;
      if (Date.now() >= deadline) {
        this.options.log.warn({ consumer, origin, position }, 'reactor did not catch up within the settle bound');
        return false;
      }
      await sleep(delay);
    }
  }

  private forgetOlderThan(limit: number) {
    for (const [key, value] of this.lastByCorrelation) if (value.at < limit) this.lastByCorrelation.delete(key);
    if (this.lastByCorrelation.size >= REMEMBER_MAX) this.lastByCorrelation.clear();
  }
}

/**
 * The running contexts (in their configured order) a request on `subject` must settle: its own
 * context, those it commands and those consuming their events, transitively (`contextsAffectedBy` of
 * shared/contracts' consumers.ts). A subject the graph does not know settles every running context.
 */
export function contextsToSettle(subject: string, running: readonly string[]): string[] {
  const key = `${subject} ${running.join(',')}`;
  let contexts = settleScopes.get(key);
  if (!contexts) {
    const affected = contextsAffectedBy(subject, running);
    contexts = affected ? running.filter((context) => affected.includes(context)) : [...running];
    settleScopes.set(key, contexts);
  }
  return contexts;
}
/** One entry per route subject: a handful, computed once. */
const settleScopes = new Map<string, string[]>();

/**
 * The gateway's side: asks the given contexts (`contextsToSettle`) to settle a request's correlation
 * id, feeds the positions they report back in, and repeats until no context reports anything new,
 * so cascades of cascades are readable too. Resolves false when the bound passed first; rejects when a context failed.
 */
export async function settleAcrossContexts(options: {
  bus: Bus;
  contexts: string[];
  correlationId: string;
  timeoutMs: number;
}): Promise<boolean> {
  const { bus, contexts, correlationId } = options;
  const deadline = Date.now() + options.timeoutMs;
  const after: Record<string, number> = {};
  // Each round either learns a new position or ends; a chain of cascades is at most one round per context.
  for (let round = 0; round <= contexts.length; round++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    const query: SettleQuery = { correlation_id: correlationId, after: { ...after }, timeout_ms: remaining };
    const answers = await Promise.all(
      contexts.map((context) =>
        bus
          .request<SettleReply>(settleSubject(context), query, { timeoutMs: remaining + 1000 })
          .then((answer) => [context, answer.position, answer.complete] as const)
          .catch((err: unknown) => {
            // A context that is not running has no effects to show (its consumers catch up when it starts).
            if (err instanceof BusUnavailableError && /no responders/.test(err.message)) return [context, null, true] as const;
            throw err;
          }),
      ),
    );
    if (answers.some(([, , complete]) => !complete)) return false;
    let learned = false;
    for (const [context, position] of answers) {
      if (position !== null && position > (after[context] ?? 0)) {
        after[context] = position;
        learned = true;
      }
    }
    if (!learned) return true;
  }
  return false;
}
