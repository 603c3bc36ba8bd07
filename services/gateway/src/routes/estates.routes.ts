import { z } from 'zod';
import {
  AddEstateMemberBody,
  CreateEstateBody,
  CreateFloorBody,
  CreateRoofBody,
  CreateRoomBody,
  CreateStaircaseBody,
  Estate,
  EstateFile,
  EstateHistoryEntry,
  EstateListForm,
  EstateListQuery,
  EstateListReply,
  EstateMember,
  EstatesSubjects as S,
  FILE_MEDIA_TYPES,
  Floor,
  GetEstateQuery,
  MEDIA_MEDIA_TYPES,
  Roof,
  Room,
  Staircase,
  UpdateEstateBody,
  UpdateFloorBody,
  UpdateRoofBody,
  UpdateRoomBody,
  UpdateStaircaseBody,
} from '@renopath/contracts';
import type { RouteDef } from './route.ts';

/** Estates, their parts, files, media and members (docs/http-contract.md "Estates and their parts"). */
const base = { prefix: 'both', auth: 'bearer', scope: 'estates', tag: 'estates' } as const;
const E = '/estates/{estate_id}';
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
    { ...base, method: 'GET', path: o.collection, subject: o.subjects.list, operationId: `list${o.name}s`, ids: o.ids, status: 200, reply: z.array(o.reply), summary: `The estate's ${o.noun}s`, errors: [401, 403, 404] },
    { ...base, method: 'POST', path: o.collection, subject: o.subjects.add, operationId: `add${o.name}`, ids: o.ids, body: o.create, status: 201, reply: o.reply, summary: `Add a ${o.noun}`, errors: [400, 401, 403, 404] },
    { ...base, method: 'GET', path: o.item, subject: o.subjects.get, operationId: `get${o.name}`, ids: itemIds, status: 200, reply: o.reply, summary: `One ${o.noun}`, errors: [401, 403, 404] },
    { ...base, method: 'PATCH', path: o.item, subject: o.subjects.update, operationId: `update${o.name}`, ids: itemIds, body: o.update, status: 200, reply: o.reply, summary: `Edit a ${o.noun} (its linked renovation items follow)`, errors: [400, 401, 403, 404] },
    { ...base, method: 'DELETE', path: o.item, subject: o.subjects.remove, operationId: `remove${o.name}`, ids: itemIds, status: 200, reply: o.reply, summary: `Remove a ${o.noun} (and its renovation items)`, errors: [401, 403, 404] },
  ];
}

const upload = (path: string, subject: string, noun: string, accept: readonly string[], operationId: string): RouteDef => ({
  ...base,
  method: 'POST',
  path,
  subject,
  operationId,
  ids: ['estate_id'],
  kind: 'upload',
  accept,
  signLinks: true,
  status: 201,
  reply: EstateFile,
  summary: `Upload a ${noun} (multipart/form-data: part file, optional part name; at most 25 MiB; ${accept.join(', ')})`,
  errors: [400, 401, 403, 404, 413, 415],
});

export const estatesRoutes: RouteDef[] = [
  { ...base, method: 'POST', path: '/estates', subject: S.createEstate, operationId: 'createEstate', body: CreateEstateBody, signLinks: true, status: 201, reply: Estate, summary: 'Create an estate (no field is required; every given one is checked). 409: another estate of the organization has this external_id', errors: [400, 401, 403, 409] },
  { ...base, method: 'GET', path: '/estates', subject: S.listEstates, operationId: 'listEstates', signLinks: true, status: 200, reply: z.array(EstateListForm), summary: 'The estates the caller sees, list form (without energy_context, dimensions, habitable_space_m2, ground_surface_m2 and files), newest first', errors: [401, 403] },
  { ...base, method: 'GET', path: E, subject: S.getEstate, operationId: 'getEstate', ids: ['estate_id'], query: GetEstateQuery, signLinks: true, status: 200, reply: Estate, summary: 'One estate with its nested contexts, parts, files, media and members; `as_of` replays its history to that moment', errors: [400, 401, 403, 404] },
  { ...base, method: 'PATCH', path: E, subject: S.updateEstate, operationId: 'updateEstate', ids: ['estate_id'], body: UpdateEstateBody, signLinks: true, status: 200, reply: Estate, summary: "Edit an estate's fields; nested objects (address, commercial_context, energy_context, dimensions) merge, null clears (also managing_user_id, a user of the same organization). 409: another estate of the organization has this external_id", errors: [400, 401, 403, 404, 409] },
  { ...base, method: 'DELETE', path: E, subject: S.deleteEstate, operationId: 'deleteEstate', ids: ['estate_id'], status: 200, reply: EstateListForm, summary: 'Delete an estate with its parts and files (its history stays readable)', errors: [401, 403, 404] },
  { ...base, prefix: 'v1', method: 'GET', path: '/estate/list', subject: S.estateList, operationId: 'listEstatesWithReferrals', query: EstateListQuery, signLinks: true, status: 200, reply: EstateListReply, summary: 'The estates the caller sees, with provider, external id, quality label and referral link per item', errors: [400, 401, 403] },
  { ...base, prefix: 'v1', scope: 'audit', tag: 'audit', method: 'GET', path: `${E}/history`, subject: S.history, operationId: 'getEstateHistory', ids: ['estate_id'], status: 200, reply: z.array(EstateHistoryEntry), summary: "The estate's events, oldest first: who, when and what (scope audit). Upload keys are left out; a CLIENT reader sees no other member's details and no staff client id", errors: [401, 403, 404] },

  upload(`${E}/files`, S.addFile, 'file', FILE_MEDIA_TYPES, 'uploadEstateFile'),
  { ...base, method: 'DELETE', path: `${E}/files/{file_id}`, subject: S.removeFile, operationId: 'deleteEstateFile', ids: ['estate_id', 'file_id'], status: 200, reply: EstateFile, summary: 'Delete a file; its download links answer 404 from then on', errors: [401, 403, 404] },
  upload(`${E}/media`, S.addMedia, 'medium', MEDIA_MEDIA_TYPES, 'uploadEstateMedium'),
  { ...base, method: 'DELETE', path: `${E}/media/{file_id}`, subject: S.removeMedia, operationId: 'deleteEstateMedium', ids: ['estate_id', 'file_id'], status: 200, reply: EstateFile, summary: 'Delete a medium; its download links answer 404 from then on', errors: [401, 403, 404] },

  ...partRoutes({
    collection: `${E}/roofs`, item: `${E}/roofs/{roof_id}`, ids: ['estate_id'], idName: 'roof_id', noun: 'roof', name: 'Roof',
    subjects: { list: S.listRoofs, get: S.getRoof, add: S.addRoof, update: S.updateRoof, remove: S.removeRoof },
    reply: Roof, create: CreateRoofBody, update: UpdateRoofBody,
  }),
  ...partRoutes({
    collection: `${E}/floors`, item: F, ids: ['estate_id'], idName: 'floor_id', noun: 'floor', name: 'Floor',
    subjects: { list: S.listFloors, get: S.getFloor, add: S.addFloor, update: S.updateFloor, remove: S.removeFloor },
    reply: Floor, create: CreateFloorBody, update: UpdateFloorBody,
  }),
  ...partRoutes({
    collection: `${F}/rooms`, item: `${F}/rooms/{room_id}`, ids: ['estate_id', 'floor_id'], idName: 'room_id', noun: 'room', name: 'Room',
    subjects: { list: S.listRooms, get: S.getRoom, add: S.addRoom, update: S.updateRoom, remove: S.removeRoom },
    reply: Room, create: CreateRoomBody, update: UpdateRoomBody,
  }),
  ...partRoutes({
    collection: `${F}/staircases`, item: `${F}/staircases/{staircase_id}`, ids: ['estate_id', 'floor_id'], idName: 'staircase_id', noun: 'staircase', name: 'Staircase',
    subjects: { list: S.listStaircases, get: S.getStaircase, add: S.addStaircase, update: S.updateStaircase, remove: S.removeStaircase },
    reply: Staircase, create: CreateStaircaseBody, update: UpdateStaircaseBody,
  }),

  { ...base, method: 'GET', path: `${E}/members`, subject: S.listMembers, operationId: 'listEstateMembers', ids: ['estate_id'], status: 200, reply: z.array(EstateMember), summary: "The estate's members (CLIENT), invited ones with status PENDING; a CLIENT reader sees only themself", errors: [401, 403, 404] },
  { ...base, method: 'POST', path: `${E}/members`, subject: S.addMember, operationId: 'inviteEstateMember', ids: ['estate_id'], body: AddEstateMemberBody, status: 201, reply: EstateMember, summary: 'Invite an estate member: PENDING (and a pending CLIENT of the organization) until they accept the invitation mailed to the address; answered with the names given here. An active member of the organization is a member at once and keeps their role', errors: [400, 401, 403, 404] },
  { ...base, method: 'DELETE', path: `${E}/members/{member_id}`, subject: S.removeMember, operationId: 'removeEstateMember', ids: ['estate_id', 'member_id'], status: 200, reply: EstateMember, summary: 'Remove an estate member (they stay in the organization)', errors: [401, 403, 404] },
];
