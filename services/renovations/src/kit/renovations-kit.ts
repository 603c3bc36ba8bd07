import type { Logger } from 'pino';
import { notFound, type EventStore, type Filter, type ReadStore } from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import type { Projection } from '@renopath/platform/projection-runner.ts';
import { actorOf, commandContext, idParam, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import { isWriterRole, type Actor, type ItemPlacement, type RenovationCommand, type ServiceRequest } from '@renopath/contracts';
import { D, roleId, type RoleDoc } from '../directory-mirror/directory-mirror.reactor.ts';
import { findOnFloor, type Snapshot } from '../estate-mirror/estate-mirror.ts';
import { M, type EstateMemberDoc, type EstateMirrorDoc } from '../estate-mirror/estate-mirror.reactor.ts';
import { renovationDecider, renovationStream } from '../renovation/renovation.decider.ts';
import { C, type RenovationDoc } from '../renovation-views/renovation-views.projection.ts';

export type Handler = (req: ServiceRequest) => Promise<unknown>;

export interface RenovationsConfig {
  settleTimeoutMs: number;
}

export type RenovationsKit = ReturnType<typeof renovationsKit>;

/** What the context's handlers and queries share: storage, its copies of estates and roles, who may do what. */
export function renovationsKit(deps: {
  store: EventStore;
  reads: ReadStore;
  projection: Projection;
  config: RenovationsConfig;
  log: Logger;
  now: () => Date;
}) {
  const { store, reads, config, now } = deps;
  const year = () => now().getUTCFullYear();
  const settle = readYourWrites(deps.projection, config.settleTimeoutMs);

  // ---- who may do what: the token's organization and role there, and estate memberships (docs/http-contract.md) ----

  const estateOf = async (estate_id: string): Promise<Snapshot | null> =>
    (await reads.get<EstateMirrorDoc>(M.estates, estate_id))?.snapshot ?? null;
  const roleOf = async (actor: Actor) =>
    (await reads.get<RoleDoc>(D.roles, roleId(actor.organization_id, actor.user_id)))?.member_type ?? null;

  /**
   * Owners and employees of the estate's organization, and its estate members (clients may build
   * renovations on the estates they are a member of), acting with a token of that organization.
   * Anyone else does not learn that the estate or its renovations exist.
   */
  async function mayUse(actor: Actor, estate: Snapshot): Promise<boolean> {
    if (estate.organization_id !== actor.organization_id) return false;
    const role = await roleOf(actor);
    if (!role) return false;
    return isWriterRole(role) || estate.members.includes(actor.user_id);
  }

  /** A renovation the caller may see; deleted ones only where the past stays readable (history, `as_of`). */
  async function renovationFor(req: ServiceRequest, options: { deleted?: boolean } = {}) {
    const actor = actorOf(req);
    const renovation_id = idParam(req, 'renovation_id', 'renovation');
    const doc = await reads.get<RenovationDoc>(C.renovations, renovation_id);
    if (!doc || (doc.deleted_at !== null && !options.deleted)) throw notFound('renovation');
    const estate = await estateOf(doc.estate_id);
    if (!estate || !(await mayUse(actor, estate))) throw notFound('renovation');
    return { doc, estate };
  }

  /** The place an item path names: a roof, a room or staircase (with its floor) of the renovation's estate, or the general scope. */
  function placementOf(req: ServiceRequest, estate: Snapshot): ItemPlacement {
    const none = { roof_id: null, floor_id: null, room_id: null, staircase_id: null };
    if (req.params?.['roof_id'] !== undefined) {
      const roof_id = idParam(req, 'roof_id', 'roof');
      if (!estate.roofs.some((r) => r.id === roof_id)) throw notFound('roof');
      return { ...none, scope: 'ROOF', roof_id };
    }
    if (req.params?.['room_id'] !== undefined) {
      const room_id = idParam(req, 'room_id', 'room');
      const found = findOnFloor(estate, 'rooms', room_id);
      if (!found) throw notFound('room');
      return { ...none, scope: 'ROOM', room_id, floor_id: found.floor.id };
    }
    if (req.params?.['staircase_id'] !== undefined) {
      const staircase_id = idParam(req, 'staircase_id', 'staircase');
      const found = findOnFloor(estate, 'staircases', staircase_id);
      if (!found) throw notFound('staircase');
      return { ...none, scope: 'STAIRCASE', staircase_id, floor_id: found.floor.id };
    }
    return { ...none, scope: 'GENERAL' };
  }

  const samePlace = (a: ItemPlacement, b: ItemPlacement) =>
    a.scope === b.scope && a.roof_id === b.roof_id && a.room_id === b.room_id && a.staircase_id === b.staircase_id;

  /** Decides, appends and waits until the read model shows the change. */
  async function run(req: ServiceRequest, renovation_id: string, command: RenovationCommand) {
    const result = await handleCommand(store, renovationStream(renovation_id), renovationDecider, command, commandContext(req, now()));
    await settle(result.position);
  }

  const current = async (renovation_id: string) => {
    const doc = await reads.get<RenovationDoc>(C.renovations, renovation_id);
    if (!doc) throw new Error(`renovation ${renovation_id} not projected`);
    return doc;
  };

  /** The renovations the caller sees: a filter on the read model, or null for none. */
  async function visibility(actor: Actor): Promise<Filter | null> {
    const role = await roleOf(actor);
    if (!role) return null;
    if (isWriterRole(role)) return { organization_id: actor.organization_id };
    const { items } = await reads.query<EstateMemberDoc>(M.estateMembers, {
      filter: { user_id: actor.user_id, organization_id: actor.organization_id },
    });
    return items.length ? { estate_id: { $in: items.map((m) => m.estate_id) } } : null;
  }

  return { ...deps, year, settle, estateOf, mayUse, renovationFor, placementOf, samePlace, run, current, visibility };
}
