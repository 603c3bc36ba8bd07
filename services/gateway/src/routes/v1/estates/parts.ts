import { z } from 'zod';
import {
  CreateFloorBody,
  CreateRoofBody,
  CreateRoomBody,
  CreateStaircaseBody,
  EstatesSubjects as S,
  Floor,
  Roof,
  Room,
  Staircase,
  UpdateFloorBody,
  UpdateRoofBody,
  UpdateRoomBody,
  UpdateStaircaseBody,
} from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';
import { base, E } from './index.ts';

const F = `${E}/floors/{floor_id}`;

/** GET list, GET one, POST, PATCH, DELETE of one kind of part. */
function partRoutes(o: {
  collection: string;
  item: string;
  ids: string[];
  idName: string;
  noun: string;
  /** The part's name in operationIds: `Roof` gives listRoofs, addRoof, getRoof, updateRoof, removeRoof. */
  name: string;
  subjects: { list: string; get: string; add: string; update: string; remove: string };
  reply: z.ZodType;
  create: z.ZodType;
  update: z.ZodType;
}): RouteDef[] {
  const itemIds = [...o.ids, o.idName];
  return [
    {
      ...base,
      method: 'GET',
      path: o.collection,
      subject: o.subjects.list,
      operationId: `list${o.name}s`,
      ids: o.ids,
      status: 200,
      reply: z.array(o.reply),
      summary: `The estate's ${o.noun}s`,
      errors: [401, 403, 404],
    },
    {
      ...base,
      method: 'POST',
      path: o.collection,
      subject: o.subjects.add,
      operationId: `add${o.name}`,
      ids: o.ids,
      body: o.create,
      status: 201,
      reply: o.reply,
      summary: `Add a ${o.noun}`,
      errors: [400, 401, 403, 404],
    },
    {
      ...base,
      method: 'GET',
      path: o.item,
      subject: o.subjects.get,
      operationId: `get${o.name}`,
      ids: itemIds,
      status: 200,
      reply: o.reply,
      summary: `One ${o.noun}`,
      errors: [401, 403, 404],
    },
    {
      ...base,
      method: 'PATCH',
      path: o.item,
      subject: o.subjects.update,
      operationId: `update${o.name}`,
      ids: itemIds,
      body: o.update,
      status: 200,
      reply: o.reply,
      summary: `Edit a ${o.noun} (its linked renovation items follow)`,
      errors: [400, 401, 403, 404],
    },
    {
      ...base,
      method: 'DELETE',
      path: o.item,
      subject: o.subjects.remove,
      operationId: `remove${o.name}`,
      ids: itemIds,
      status: 200,
      reply: o.reply,
      summary: `Remove a ${o.noun} (and its renovation items)`,
      errors: [401, 403, 404],
    },
  ];
}

/** An estate's roofs, floors, and each floor's rooms and staircases. */
export const estatePartRoutes: RouteDef[] = [
  ...partRoutes({
    collection: `${E}/roofs`,
    item: `${E}/roofs/{roof_id}`,
    ids: ['estate_id'],
    idName: 'roof_id',
    noun: 'roof',
    name: 'Roof',
    subjects: { list: S.listRoofs, get: S.getRoof, add: S.addRoof, update: S.updateRoof, remove: S.removeRoof },
    reply: Roof,
    create: CreateRoofBody,
    update: UpdateRoofBody,
  }),
  ...partRoutes({
    collection: `${E}/floors`,
    item: F,
    ids: ['estate_id'],
    idName: 'floor_id',
    noun: 'floor',
    name: 'Floor',
    subjects: { list: S.listFloors, get: S.getFloor, add: S.addFloor, update: S.updateFloor, remove: S.removeFloor },
    reply: Floor,
    create: CreateFloorBody,
    update: UpdateFloorBody,
  }),
  ...partRoutes({
    collection: `${F}/rooms`,
    item: `${F}/rooms/{room_id}`,
    ids: ['estate_id', 'floor_id'],
    idName: 'room_id',
    noun: 'room',
    name: 'Room',
    subjects: { list: S.listRooms, get: S.getRoom, add: S.addRoom, update: S.updateRoom, remove: S.removeRoom },
    reply: Room,
    create: CreateRoomBody,
    update: UpdateRoomBody,
  }),
  ...partRoutes({
    collection: `${F}/staircases`,
    item: `${F}/staircases/{staircase_id}`,
    ids: ['estate_id', 'floor_id'],
    idName: 'staircase_id',
    noun: 'staircase',
    name: 'Staircase',
    subjects: { list: S.listStaircases, get: S.getStaircase, add: S.addStaircase, update: S.updateStaircase, remove: S.removeStaircase },
    reply: Staircase,
    create: CreateStaircaseBody,
    update: UpdateStaircaseBody,
  }),
];
