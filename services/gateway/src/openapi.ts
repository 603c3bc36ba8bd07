import { z } from 'zod';
import * as contracts from '@renopath/contracts';

/** JSON schemas of the OpenAPI document that no route's own schema yields (`plugins/docs.ts` generates the rest). */
type Json = Record<string, unknown>;

export const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
};

/**
 * The resources of INTERFACE.md by name, published under `components.schemas` also where their
 * endpoints are not served yet (calculation jobs, renovations, reports), so integrators can code
 * against the shapes now.
 */
const RESOURCE_SCHEMAS = [
  'TrajectoryRequest', 'CalculationJob', 'TrajectoryJobMetadata', 'IndicationRequest', 'IndicationRecord',
  'Estate', 'EstateListForm', 'EstateListReply', 'Roof', 'Floor', 'Room', 'Staircase', 'EstateFile', 'EstateMember',
  'Organization', 'OrganizationMember', 'User', 'TokenReply',
  'CreateRenovationBody', 'RenovationCreated', 'Renovation', 'RenovationWithFiles', 'RenovationSearchPage', 'RenovationItemBody', 'RenovationItem',
  'AvailableItem', 'RenovationOverview', 'RenovationOverviewV1', 'GovernmentGrants', 'CreateReportBody', 'Report', 'OldStyleReport',
] as const;
const REQUEST_SCHEMAS = new Set<string>(['TrajectoryRequest', 'IndicationRequest', 'CreateRenovationBody', 'RenovationItemBody', 'CreateReportBody']);

export function documentedResourceSchemas(): Record<string, Json> {
  const all = contracts as unknown as Record<string, z.ZodType>;
  return Object.fromEntries(RESOURCE_SCHEMAS.map((name) => [name, schemaOf(all[name]!, REQUEST_SCHEMAS.has(name) ? 'input' : 'output')]));
}

