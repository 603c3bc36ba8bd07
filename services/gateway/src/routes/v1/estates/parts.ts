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

/** The kinds of part, by their name in operationIds: `Roof` gives listRoofs, addRoof, getRoof, updateRoof, removeRoof. */
type PartName = 'Roof' | 'Floor' | 'Room' | 'Staircase';

/**
 * GET list, GET one, POST, PATCH, DELETE of one kind of part, hung under the estate or under a floor: its
 * paths, ids and subjects follow from its noun and name (`roof`, `Roof`: `/roofs/{roof_id}`, S.listRoofs...).
 */
function partRoutes(
  parent: 'estate' | 'floor',
  noun: string,
  name: PartName,
  reply: z.ZodType,
  create: z.ZodType,
  update: z.ZodType,
): RouteDef[] {
  const collection = `${parent === 'estate' ? E : F}/${noun}s`;
  const o = {
    collection,
    item: `${collection}/{${noun}_id}`,
    ids: parent === 'estate' ? ['estate_id'] : ['estate_id', 'floor_id'],
    idName: `${noun}_id`,
    noun,
    name,
    subjects: {
      list: S[`list${name}s`],
      get: S[`get${name}`],
      add: S[`add${name}`],
      update: S[`update${name}`],
      remove: S[`remove${name}`],
    },
    reply,
    create,
    update,
  };
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
  ...partRoutes('estate', 'roof', 'Roof', Roof, CreateRoofBody, UpdateRoofBody),
  ...partRoutes('estate', 'floor', 'Floor', Floor, CreateFloorBody, UpdateFloorBody),
  ...partRoutes('floor', 'room', 'Room', Room, CreateRoomBody, UpdateRoomBody),
  ...partRoutes('floor', 'staircase', 'Staircase', Staircase, CreateStaircaseBody, UpdateStaircaseBody),
];
