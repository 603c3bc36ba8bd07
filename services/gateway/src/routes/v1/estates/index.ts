import { z } from 'zod';
import {
  CreateEstateBody,
  Estate,
  EstateHistoryEntry,
  EstateListForm,
  EstatesSubjects as S,
  GetEstateQuery,
  UpdateEstateBody,
} from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';
import { historyRoute } from '../../history.ts';

/** Estates, their parts, files, media and members (docs/http-contract.md "Estates and their parts"). */
export const base = { prefix: 'both', auth: 'bearer', scope: 'estates', tag: 'estates' } as const;
export const E = '/estates/{estate_id}';

/**
 * An estate's rules beyond its schema: who may manage it (a member of the organization), and its
 * fields taken together (estates' estate.decider.ts), whose messages these are.
 */
const ESTATE_RULES = [
  "managing_user_id must be a user of the estate's organization",
  'address.zip_code must be a Belgian postal code (4 digits)',
  'address.zip_code must be a Dutch postal code (4 digits, optionally followed by 2 letters)',
  'address.zip_code must be a Belgian (4 digits) or Dutch (4 digits and 2 letters) postal code',
  'year_renovated must not be before year_built',
  'energy_context.cavity_wall_width and energy_context.has_cavity_wall_insulation need energy_context.has_cavity_wall true',
  'energy_context.basement_ceiling_surface, basement_ceiling_height and floor_above_basement_insulation_type need a basement_type other than NONE',
];

export const estateRoutes: RouteDef[] = [
  {
    ...base,
    method: 'POST',
    path: '/estates',
    subject: S.createEstate,
    operationId: 'createEstate',
    rules: ESTATE_RULES,
    body: CreateEstateBody,
    signLinks: true,
    status: 201,
    reply: Estate,
    summary:
      'Create an estate (no field is required; every given one is checked). 409: another estate of the organization has this external_id',
    errors: [400, 401, 403, 409],
  },
  {
    ...base,
    method: 'GET',
    path: '/estates',
    subject: S.listEstates,
    operationId: 'listEstates',
    signLinks: true,
    status: 200,
    reply: z.array(EstateListForm),
    summary:
      'The estates the caller sees, list form (without energy_context, dimensions, habitable_space_m2, ground_surface_m2 and files), newest first',
    errors: [401, 403],
  },
  {
    ...base,
    method: 'GET',
    path: E,
    subject: S.getEstate,
    operationId: 'getEstate',
    ids: ['estate_id'],
    query: GetEstateQuery,
    signLinks: true,
    status: 200,
    reply: Estate,
    summary: 'One estate with its nested contexts, parts, files, media and members; `as_of` replays its history to that moment',
    errors: [400, 401, 403, 404],
  },
  {
    ...base,
    method: 'PATCH',
    path: E,
    subject: S.updateEstate,
    operationId: 'updateEstate',
    rules: ESTATE_RULES,
    ids: ['estate_id'],
    body: UpdateEstateBody,
    signLinks: true,
    status: 200,
    reply: Estate,
    summary:
      "Edit an estate's fields; nested objects (address, commercial_context, energy_context, dimensions) merge, null clears (also managing_user_id, a user of the same organization). 409: another estate of the organization has this external_id",
    errors: [400, 401, 403, 404, 409],
  },
  {
    ...base,
    method: 'DELETE',
    path: E,
    subject: S.deleteEstate,
    operationId: 'deleteEstate',
    ids: ['estate_id'],
    status: 200,
    reply: EstateListForm,
    summary: 'Delete an estate with its parts and files (its history stays readable)',
    errors: [401, 403, 404],
  },
  historyRoute(
    E,
    S.history,
    'getEstateHistory',
    EstateHistoryEntry,
    "The estate's events, oldest first: who, when and what (scope audit). Upload keys are left out; a CLIENT reader sees no other member's details and no staff client id",
  ),
];
