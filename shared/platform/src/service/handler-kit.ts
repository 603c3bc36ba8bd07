import type { z } from 'zod';
import { formatIssues, type Actor, type ServiceRequest } from '@renopath/contracts';
import { DomainError, type EventEnvelope } from '../ports/bus.ts';
import { ProjectionTimeoutError, type Projection } from '../projection-runner.ts';
import type { CommandContext } from './decider.ts';

/** What every service's bus handlers share: event metadata, read-your-writes, the caller, validation. */

/** The metadata and time stamped on the events one request causes. */
export function commandContext(req: Pick<ServiceRequest, 'actor' | 'correlation_id'>, now: Date): CommandContext {
  return {
    now: now.toISOString(),
    metadata: {
      actor: { user_id: req.actor?.user_id ?? null, client_id: req.actor?.client_id ?? null },
      correlation_id: req.correlation_id,
      causation_id: null,
    },
  };
}

/** The context of events a reactor appends for another context's event: same actor and correlation, that event as cause. */
export function reactionContext(event: EventEnvelope, now: Date): CommandContext {
  return {
    now: now.toISOString(),
    metadata: { actor: event.metadata.actor, correlation_id: event.metadata.correlation_id, causation_id: event.event_id },
  };
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

/** Services re-validate what crosses the bus: the gateway is not the only possible caller. */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new DomainError(400, formatIssues(result.error.issues));
  return result.data;
}
