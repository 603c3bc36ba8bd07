import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  checkMessage,
  derivedId,
  formatIssues,
  isUuid,
  Messages,
  type Actor,
  type MessageContract,
  type ServiceRequest,
} from '@renopath/contracts';
import { DomainError, type Bus, type Closeable, type EventEnvelope } from '../ports/bus.ts';
import type { EventMetadata } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { ProjectionTimeoutError, type Projection } from '../projection-runner.ts';
import type { CommandContext } from './decider.ts';

/** What every service's bus handlers share: event metadata, read-your-writes, the caller, validation. */

/** A path id that is not a UUID names nothing (404, `<what> not found`), like an id of another tenant; ids are kept in lower case. */
export function idParam(req: Pick<ServiceRequest, 'params'>, key: string, what: string): string {
  const value = String(req.params?.[key] ?? '').toLowerCase();
  if (!isUuid(value)) throw new DomainError(404, [`${what} not found`]);
  return value;
}

/** The metadata and time stamped on the events one request causes. */
export function commandContext(
  req: Pick<ServiceRequest, 'actor' | 'correlation_id' | 'idempotency_key' | 'traceparent'>,
  now: Date,
): CommandContext {
  return {
    now: now.toISOString(),
    metadata: {
      actor: { user_id: req.actor?.user_id ?? null, client_id: req.actor?.client_id ?? null },
      correlation_id: req.correlation_id,
      causation_id: null,
      // The event store dedupes the request's appends on it (see handleCommand): a retry after a crash writes nothing twice.
      ...(req.idempotency_key ? { idempotency_key: req.idempotency_key } : {}),
      // The request's trace, which the projections and reactors that follow continue.
      ...(req.traceparent ? { traceparent: req.traceparent } : {}),
    },
  };
}

/**
 * The id of a resource a request creates: random, or derived from the request's idempotency key so
 * that a retry of a create whose first attempt died names the same resource (and the store dedupes it).
 * `purpose` tells apart the ids one request makes (`estate`, `roof`, `user`...). UUID v4 in form.
 */
export function newId(req: Pick<ServiceRequest, 'idempotency_key'>, purpose: string): string {
  return req.idempotency_key ? derivedId(req.idempotency_key, purpose) : randomUUID();
}

/** The metadata of events appended for another event: same actor, correlation and trace, that event as cause. */
export function reactionMetadata(event: Pick<EventEnvelope, 'event_id' | 'metadata'>): EventMetadata {
  const { actor, correlation_id, traceparent } = event.metadata;
  return { actor, correlation_id, causation_id: event.event_id, ...(traceparent ? { traceparent } : {}) };
}

/** The context of events a reactor appends for another context's event (`reactionMetadata`). */
export function reactionContext(event: Pick<EventEnvelope, 'event_id' | 'metadata'>, now: Date): CommandContext {
  return { now: now.toISOString(), metadata: reactionMetadata(event) };
}

/**
 * Read your writes: a handler answers only once its projection shows the change. Past the bound the
 * change is stored but not yet visible, and 503 tells the client to read again shortly.
 */
export function readYourWrites(projection: Projection, timeoutMs: number) {
  return async (position: bigint | null): Promise<void> => {
    if (position === null) return;
    try {
      await projection.waitFor(position, timeoutMs);
    } catch (err) {
      if (!(err instanceof ProjectionTimeoutError)) throw err;
      throw new DomainError(503, ['the change was saved but is not readable yet; read it again shortly']);
    }
  };
}

/** The verified caller; only the token endpoint and the admin API come without one. */
export function actorOf(req: ServiceRequest): Actor {
  if (!req.actor) throw new DomainError(401, []);
  return req.actor;
}

/**
 * A read model's document for a handler that only reads it: the store's shared frozen copy where it
 * keeps one (`ReadStore.getShared`), else a copy of its own. Never change what this returns.
 */
export function readShared<T extends object>(reads: ReadStore, collection: string, id: string): Promise<Readonly<T> | null> {
  return reads.getShared ? reads.getShared<T>(collection, id) : reads.get<T>(collection, id);
}

/** Services re-validate what crosses the bus: the gateway is not the only possible caller. */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new DomainError(400, formatIssues(result.error.issues));
  return result.data;
}

/**
 * Serves a context's commands and queries on the bus, each parsed with its subject's message contract
 * (`Messages` in the contracts) before its handler runs: whoever sends it, a handler receives a
 * ServiceRequest whose ids are UUIDs and whose query and body are its contract's (parsed: defaults
 * applied). A subject without a contract is refused here, at start-up, not on its first message.
 */
export async function serveMessages(
  bus: Bus,
  handlers: Record<string, (req: ServiceRequest) => Promise<unknown>>,
  contracts: Readonly<Record<string, MessageContract>> = Messages,
): Promise<Closeable[]> {
  const missing = Object.keys(handlers).filter((subject) => !Object.hasOwn(contracts, subject));
  if (missing.length > 0) throw new Error(`no message contract for ${missing.join(', ')}`);
  const served: Closeable[] = [];
  for (const [subject, handler] of Object.entries(handlers)) {
    const contract = contracts[subject]!;
    served.push(
      await bus.handle(subject, async (payload, _subject, headers) => {
        const req = parseMessage(contract, payload);
        // The sender's trace comes beside the message (bus headers), not in it.
        const traceparent = headers?.['traceparent'];
        if (typeof traceparent === 'string') req.traceparent = traceparent;
        return handler(req);
      }),
    );
  }
  return served;
}

/** A message checked against its contract (see `checkMessage`); a refusal is the DomainError the caller gets. */
export function parseMessage(contract: MessageContract, payload: unknown): ServiceRequest {
  const checked = checkMessage(contract, payload);
  if (!checked.ok) throw new DomainError(checked.status, checked.message);
  return checked.value;
}

/** A list reply's page: where it stands among the pages (at least one, even when empty) and its items. */
export function pageOf<T>(query: { page: number; page_size: number }, total: number, data: T[]) {
  const { page, page_size } = query;
  const total_pages = Math.max(1, Math.ceil(total / page_size));
  return {
    page,
    page_size,
    total_pages,
    prev_page: page > 1 ? page - 1 : null,
    next_page: page < total_pages ? page + 1 : null,
    total,
    has_prev_page: page > 1,
    has_next_page: page < total_pages,
    data,
  };
}
