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
  const ids = parent === 'estate' ? ['estate_id'] : ['estate_id', 'floor_id'];
  /** A route on one part: read it, edit it (with a body) or remove it. */
  const onePart = (method: 'GET' | 'PATCH' | 'DELETE', subject: string, operationId: string, summary: string, body?: z.ZodType) => ({
    ...base,
    method,
    path: `${collection}/{${noun}_id}`,
    subject,
    operationId,
    ids: [...ids, `${noun}_id`],
    ...(body ? { body } : {}),
    status: 200,
    reply,
    summary,
    errors: body ? [400, 401, 403, 404] : [401, 403, 404],
  });
  return [
    {
      ...base,
      method: 'GET',
      path: collection,
      subject: S[`list${name}s`],
      operationId: `list${name}s`,
      ids,
      status: 200,
      reply: z.array(reply),
      summary: `The estate's ${noun}s`,
      errors: [401, 403, 404],
    },
    {
      ...base,
      method: 'POST',
      path: collection,
      subject: S[`add${name}`],
      operationId: `add${name}`,
      ids,
      body: create,
      status: 201,
      reply,
      summary: `Add a ${noun}`,
      errors: [400, 401, 403, 404],
    },
    onePart('GET', S[`get${name}`], `get${name}`, `One ${noun}`),
    onePart('PATCH', S[`update${name}`], `update${name}`, `Edit a ${noun} (its linked renovation items follow)`, update),
    onePart('DELETE', S[`remove${name}`], `remove${name}`, `Remove a ${noun} (and its renovation items)`),
  ];
}

/** An estate's roofs, floors, and each floor's rooms and staircases. */
export const estatePartRoutes: RouteDef[] = [
  ...partRoutes('estate', 'roof', 'Roof', Roof, CreateRoofBody, UpdateRoofBody),
  ...partRoutes('estate', 'floor', 'Floor', Floor, CreateFloorBody, UpdateFloorBody),
  ...partRoutes('floor', 'room', 'Room', Room, CreateRoomBody, UpdateRoomBody),
  ...partRoutes('floor', 'staircase', 'Staircase', Staircase, CreateStaircaseBody, UpdateStaircaseBody),
];
