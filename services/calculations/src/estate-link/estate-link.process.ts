import type { Logger } from 'pino';
import { DomainError, type Bus, type EventStore, type ReadStore, type RecordedEvent } from '@renopath/platform';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import {
  CalculationJobEvents,
  EstatesSubjects,
  estateFromProperty,
  propertyOf,
  type PropertyDescription,
  type Roof,
  type ServiceRequest,
  type TrajectoryRequest,
} from '@renopath/contracts';
import type { z } from 'zod';
import { estateOfExternalId } from '../estate-directory/estate-directory.reactor.ts';

type Created = z.infer<typeof CalculationJobEvents.CalculationJobCreated>;
type JobActor = Created['actor'];

/** The idempotency key of one of the workflow's writes: a replayed event repeats the same writes, which the estates context stores once. */
export const estateKey = (job_id: string, what: string) => `calculation-job:${job_id}:${what}`;

export function callAs<T>(
  bus: Bus,
  subject: string,
  actor: JobActor,
  correlation_id: string,
  input: { key?: string; params?: Record<string, string>; body?: unknown; query?: Record<string, unknown> },
  timeoutMs: number,
): Promise<T> {
  const request: ServiceRequest = {
    actor: { ...actor, scopes: ['estates', 'renovations', 'calculations'] },
    correlation_id,
    ...(input.key ? { idempotency_key: input.key } : {}),
    params: input.params ?? {},
    query: input.query ?? {},
    body: input.body,
  };
  return bus.request<T>(subject, request, { timeoutMs });
}

/** A roof as the property names it: its kind, and its surface and insulation where known. */
function knownRoofFields(roof: ReturnType<typeof estateFromProperty>['roofs'][number]) {
  const known = Object.fromEntries(
    Object.entries({ surface_m2: roof.surface_m2, insulation_type: roof.insulation_type }).filter(([, v]) => v !== null),
  );
  return { estate_roof_type: roof.estate_roof_type, ...known };
}

export type EstateCall = <T>(
  subject: string,
  input: { key?: string; params?: Record<string, string>; body?: unknown; query?: Record<string, unknown> },
) => Promise<T>;

/**
 * Writes what a property says onto an existing estate: its fields, and a roof of each kind it names
 * with the surface and insulation it gives (an estate created from the property got them with it).
 * Every write is keyed by the job and `what`, so a replay writes nothing twice. Answers the score the
 * estate holds after the update (the client's own, when the property gives none), or null.
 */
export async function describeEstate(
  call: EstateCall,
  o: { job_id: string; estate_id: string; property: PropertyDescription; what: string },
): Promise<number | null> {
  const { fields, roofs } = estateFromProperty(o.property);
  const { estate_id } = o;
  const { external_id: _x, ...changes } = fields as Record<string, unknown>;
  const updated = await call<{ energy_context?: { epc_score?: number | null } | null }>(EstatesSubjects.updateEstate, {
    key: estateKey(o.job_id, `${o.what}-estate-update`),
    params: { estate_id },
    body: changes,
  });
  const epc_score = typeof updated?.energy_context?.epc_score === 'number' ? updated.energy_context.epc_score : null;
  if (roofs.length === 0) return epc_score;
  const current = await call<Roof[]>(EstatesSubjects.listRoofs, { params: { estate_id } });
  for (const roof of roofs) {
    const same = current.find((r) => r.estate_roof_type === roof.estate_roof_type);
    const body = knownRoofFields(roof);
    const { estate_roof_type: _kind, ...known } = body;
    if (!same) {
      await call(EstatesSubjects.addRoof, {
        key: estateKey(o.job_id, `${o.what}-roof-${roof.estate_roof_type}`),
        params: { estate_id },
        body,
      });
    } else if (Object.entries(known).some(([k, v]) => (same as Record<string, unknown>)[k] !== v)) {
      await call(EstatesSubjects.updateRoof, {
        key: estateKey(o.job_id, `${o.what}-roof-${roof.estate_roof_type}-update`),
        params: { estate_id, roof_id: same.id },
        body: known,
      });
    }
  }
  return epc_score;
}

/**
 * The estate a trajectory job describes (docs/job-metadata.md): created, or for the same organization and
 * external_id updated, with a roof of each kind the request names; then the job is ready to run.
 * Runs on the job's creation event, idempotently (keyed writes), so a crash replays it safely.
 * A refusal by the estates context (the caller may not write estates) fails the job with its reason.
 */
export interface EstateLinkOptions {
  eventStore: EventStore;
  readStore: ReadStore;
  bus: Bus;
  log: Logger;
  busTimeoutMs: number;
  /** Whether the job is linked (or failed) already: the process manager skips it then. */
  settled(job_id: string): Promise<boolean>;
  /** Each answers the position of what it appended (null when nothing was). */
  link(job_id: string, estate_id: string, epc_score: number | null, correlation_id: string): Promise<bigint | null>;
  fail(job_id: string, code: string, message: string, correlation_id: string): Promise<bigint | null>;
}

export interface EstateLink {
  /**
   * Writes the job's estate and links the job; the creating request runs it at once (so jobs are
   * linked in parallel), the process manager again for any job a crash left unlinked.
   */
  run(created: Created, correlation_id: string): Promise<bigint | null>;
  process: ProcessManager;
}

export function startEstateLinkProcess(options: EstateLinkOptions): EstateLink {
  const { bus, log } = options;

  /** The estate's id, and the score the client gave on an existing estate (null for one made from the request). */
  async function upsertEstate(created: Created, correlation_id: string): Promise<{ estate_id: string; epc_score: number | null }> {
    const call: EstateCall = (subject, input) => callAs(bus, subject, created.actor, correlation_id, input, options.busTimeoutMs);
    const property = propertyOf(created.request as TrajectoryRequest);
    let estate_id = created.estate_id!;
    if (!created.estate_exists) {
      try {
        // The roofs the request names are stored with the estate, in the same append (one request
        // to estates on every such job's path, not one per roof after it). A replay's keyed create
        // answers with the first one's estate, roofs included.
        const { fields, roofs } = estateFromProperty(property);
        const body = {
          ...fields,
          ...(created.external_id ? { external_id: created.external_id } : {}),
          ...(roofs.length > 0 ? { roofs: roofs.map(knownRoofFields) } : {}),
        };
        const reply = await call<{ id: string }>(EstatesSubjects.createDescribedEstate, { key: estateKey(created.job_id, 'estate'), body });
        return { estate_id: reply.id, epc_score: null };
      } catch (err) {
        // Another estate took the external_id in the meantime: that one is the client's record.
        if (!(err instanceof DomainError && err.status === 409 && created.external_id)) throw err;
        const other = await estateOfExternalId(options.readStore, created.actor.organization_id, created.external_id);
        if (!other) throw err;
        estate_id = other;
      }
    }
    const epc_score = await describeEstate(call, { job_id: created.job_id, estate_id, property, what: 'request' });
    return { estate_id, epc_score };
  }

  /** Links under way in this process: the process manager waits for one instead of doing it again. */
  const running = new Map<string, Promise<bigint | null>>();

  function run(created: Created, correlation_id: string): Promise<bigint | null> {
    const under = running.get(created.job_id);
    if (under) return under;
    const linking = linkNow(created, correlation_id).finally(() => running.delete(created.job_id));
    running.set(created.job_id, linking);
    return linking;
  }

  async function linkNow(created: Created, correlation_id: string): Promise<bigint | null> {
    if (created.calculation_job_type !== 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION') return null;
    let linked: { estate_id: string; epc_score: number | null };
    try {
      linked = await upsertEstate(created, correlation_id);
    } catch (err) {
      // A refusal is an answer (the job fails with it); anything else (a peer down) is retried.
      if (!(err instanceof DomainError) || err.status >= 500 || err.status === 409) throw err;
      return options.fail(
        created.job_id,
        'ESTATE_REFUSED',
        `the estate could not be written: ${err.messages.join('; ') || `status ${err.status}`}`,
        correlation_id,
      );
    }
    return options.link(created.job_id, linked.estate_id, linked.epc_score, correlation_id);
  }

  const process = runProcessManager({
    name: 'calculations-estate-link',
    eventStore: options.eventStore,
    readStore: options.readStore,
    eventTypes: ['CalculationJobCreated'],
    onError: (err, event) => log.warn({ err, event_id: event?.event_id }, 'estate link failed; retrying'),
    async handle(event: RecordedEvent) {
      const created = CalculationJobEvents.CalculationJobCreated.parse(event.data);
      // The creating request may be linking it right now: wait for that, then look.
      await running.get(created.job_id)?.catch(() => undefined);
      if (await options.settled(created.job_id)) return;
      // Keyed writes: if the creating request is still at it, both write once between them.
      await run(created, event.metadata.correlation_id);
    },
  });
  return { run, process };
}
