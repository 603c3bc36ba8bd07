import { notFound } from '@renopath/platform';
import { newId, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  CreateFloorBody,
  CreateRoofBody,
  CreateRoomBody,
  CreateStaircaseBody,
  UpdateFloorBody,
  UpdateRoofBody,
  UpdateRoomBody,
  UpdateStaircaseBody,
  type EstateCommand,
  type ServiceRequest,
} from '@renopath/contracts';
import { readable } from '../estate-queries/estate.queries.ts';
import type { EstateView } from '../estate-views/estate-view.ts';
import { C, type EstateDetailDoc } from '../estate-views/estate-views.projection.ts';
import { idParam } from '@renopath/platform/service/handler-kit.ts';
import type { EstatesKit, Handler } from '../kit/estates-kit.ts';

/** Parts: one shape for roofs, floors, rooms and staircases (rooms and staircases live on a floor). */
export type PartKind = 'roof' | 'floor' | 'room' | 'staircase';

const partsOf = (view: EstateView, kind: PartKind, floor_id: string | null): Array<{ id: string }> => {
  if (kind === 'roof') return view.roofs;
  if (kind === 'floor') return view.floors;
  const floor = view.floors.find((f) => f.id === floor_id);
  if (!floor) throw notFound('floor');
  return kind === 'room' ? floor.rooms : floor.staircases;
};
const findPart = (view: EstateView, kind: PartKind, floor_id: string | null, id: string) => {
  const part = partsOf(view, kind, floor_id).find((p) => p.id === id);
  if (!part) throw notFound(kind);
  return part;
};
const floorIdOf = (req: ServiceRequest, kind: PartKind) =>
  kind === 'room' || kind === 'staircase' ? idParam(req, 'floor_id', 'floor') : null;

const PART_COMMANDS = {
  roof: { create: CreateRoofBody, update: UpdateRoofBody, add: 'AddRoof', change: 'UpdateRoof', remove: 'RemoveRoof' },
  floor: { create: CreateFloorBody, update: UpdateFloorBody, add: 'AddFloor', change: 'UpdateFloor', remove: 'RemoveFloor' },
  room: { create: CreateRoomBody, update: UpdateRoomBody, add: 'AddRoom', change: 'UpdateRoom', remove: 'RemoveRoom' },
  staircase: {
    create: CreateStaircaseBody,
    update: UpdateStaircaseBody,
    add: 'AddStaircase',
    change: 'UpdateStaircase',
    remove: 'RemoveStaircase',
  },
} as const;

export function partHandlers(kit: EstatesKit, kind: PartKind): Record<'list' | 'get' | 'add' | 'update' | 'remove', Handler> {
  const spec = PART_COMMANDS[kind];
  const idKey = `${kind}_id`;
  const ids = (req: ServiceRequest) => {
    const floor_id = floorIdOf(req, kind);
    return { estate_id: kit.estateIdOf(req), ...(floor_id ? { floor_id } : {}) } as { estate_id: string; floor_id?: string };
  };
  return {
    list: async (req) => {
      const { view } = await readable(kit, req);
      return partsOf(view, kind, floorIdOf(req, kind));
    },
    get: async (req) => {
      const { view } = await readable(kit, req);
      return findPart(view, kind, floorIdOf(req, kind), idParam(req, idKey, kind));
    },
    add: async (req) => {
      const base = ids(req);
      const fields = parse(spec.create, req.body);
      const part_id = newId(req, kind);
      await kit.write(req, base.estate_id, { type: spec.add, ...base, [idKey]: part_id, fields } as EstateCommand);
      return findPart((await kit.currentView(base.estate_id)).view, kind, base.floor_id ?? null, part_id);
    },
    update: async (req) => {
      const base = ids(req);
      const part_id = idParam(req, idKey, kind);
      const changes = parse(spec.update, req.body);
      await kit.write(req, base.estate_id, { type: spec.change, ...base, [idKey]: part_id, changes } as EstateCommand);
      return findPart((await kit.currentView(base.estate_id)).view, kind, base.floor_id ?? null, part_id);
    },
    remove: async (req) => {
      const base = ids(req);
      const part_id = idParam(req, idKey, kind);
      const before = await kit.reads.get<EstateDetailDoc>(C.detail, base.estate_id);
      await kit.write(req, base.estate_id, { type: spec.remove, ...base, [idKey]: part_id } as EstateCommand);
      return before?.view ? findPart(before.view, kind, base.floor_id ?? null, part_id) : {};
    },
  };
}
