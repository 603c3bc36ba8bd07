import { DomainError } from '@renopath/platform';
import { fold } from '@renopath/platform/service/decider.ts';
import { actorOf, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import { CreateDescribedEstateBody, type JobEstate, type ServiceRequest } from '@renopath/contracts';
import { externalIdDecider, externalIdStream } from '../external-id/external-id.decider.ts';
import { lowerIds, type EstatesKit, type Handler } from '../kit/estates-kit.ts';

/** The estate that holds an organization's external_id now, or null. */
async function holderOf(kit: EstatesKit, organization_id: string, external_id: string): Promise<string | null> {
  const events = await kit.store.readStream(externalIdStream(organization_id, external_id));
  return fold(
    externalIdDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as never),
  ).holder;
}

/**
 * `describe-estate-for-job` (the gateway, before it creates a trajectory job): the estate the request
 * describes, created with the roofs it names (`create`), or, when the organization's estate with the
 * same external_id exists, updated with its fields and roofs: a roof of a kind the estate lacks added,
 * one it has given the surface and insulation the request names. Keyed by the job's Idempotency-Key
 * (the estate's and roofs' ids come from it), so a retry writes nothing twice. The `estates` scope, or
 * `calculations` (running a job describes its estate; estates' own write routes still need `estates`);
 * the caller must be an owner or employee, and a writer of an existing estate. Answers the estate's id
 * and the score it holds once read-your-writes (the client's own on an existing estate).
 */
export function describeEstateForJob(kit: EstatesKit, create: Handler): Handler {
  return async (req) => {
    const actor = actorOf(req);
    if (!actor.scopes.includes('estates') && !actor.scopes.includes('calculations')) {
      throw new DomainError(403, ['the estates or calculations scope is needed']);
    }
    const body = lowerIds(parse(CreateDescribedEstateBody, req.body));
    const external = body.external_id ?? null;
    const existing = external ? await holderOf(kit, actor.organization_id, external) : null;
    const estate_id = existing ?? (await createOrTaken(kit, req, create, external));
    if (typeof estate_id !== 'string') return estate_id;
    return updateDescribed(kit, req, estate_id, body);
  };
}

/** The estate made for the request; or, when another request took the external_id meanwhile, that estate's id (the client's record). */
async function createOrTaken(kit: EstatesKit, req: ServiceRequest, create: Handler, external: string | null): Promise<JobEstate | string> {
  try {
    const created = (await create(req)) as { id: string };
    return { id: created.id, existed: false, epc_score: null };
  } catch (err) {
    if (!(err instanceof DomainError && err.status === 409 && external)) throw err;
    const holder = await holderOf(kit, actorOf(req).organization_id, external);
    if (!holder) throw err;
    return holder;
  }
}

async function updateDescribed(
  kit: EstatesKit,
  req: ServiceRequest,
  estate_id: string,
  body: CreateDescribedEstateBody,
): Promise<JobEstate> {
  const { estate_provider_type: _p, external_id: _x, roofs = [], ...changes } = body;
  const updated = await kit.record(req, estate_id, { type: 'UpdateEstate', estate_id, changes });
  let state = updated.after;
  let position = updated.position;
  for (const roof of roofs) {
    const same = Object.entries(state.roofs).find(([, r]) => r.estate_roof_type === roof.estate_roof_type);
    const { estate_roof_type: _kind, ...known } = roof;
    const command = same
      ? { type: 'UpdateRoof' as const, estate_id, roof_id: same[0], changes: known }
      : { type: 'AddRoof' as const, estate_id, roof_id: newId(req, `roof-${roof.estate_roof_type}`), fields: roof };
    const recorded = await kit.record(req, estate_id, command, { state });
    state = recorded.after;
    position = recorded.position ?? position;
  }
  await kit.settle(position);
  const score = state.fields.energy_context.epc_score;
  return { id: estate_id, existed: true, epc_score: typeof score === 'number' ? score : null };
}
