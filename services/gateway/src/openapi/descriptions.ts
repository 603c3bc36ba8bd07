import type { Scope } from '@renopath/contracts';

/** What each OAuth scope lets an API client do (the token endpoint grants a client's scopes; docs/http-contract.md). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  estates: 'Estates, their parts, files, media and members.',
  renovations: 'Renovations, their items, overview and grants.',
  calculations: 'Trajectory jobs and energy-efficiency indications.',
  reports: 'PDF reports of renovations.',
  organization: 'The organization, its users and members.',
  audit: 'The event history of estates and renovations (not granted unless asked for).',
};

/**
 * A description of every named schema of the OpenAPI document, by its contract's name (an input
 * variant `<Name>Input` shares its contract's). `openapi-document.unit.spec.ts` fails on a schema
 * without one, so a new contract a route publishes gets its words here.
 */
export const COMPONENT_DESCRIPTIONS: Record<string, string> = {
};
