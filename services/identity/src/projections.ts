import type { ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import { IdentityEvents } from '@renopath/contracts';

export type { ProjectionDefinition };
import { C, DIRECTORY_PROJECTION, projectDirectory } from './directory/directory.projection.ts';

/** Reads every stream of the context (users, organizations, API clients all feed it). */
export const DIRECTORY: ProjectionDefinition = {
  name: DIRECTORY_PROJECTION,
  collections: Object.values(C),
  handle: withEventContracts(IdentityEvents, projectDirectory),
};

/** The read models built from this context's own event store. */
export const PROJECTIONS: ProjectionDefinition[] = [DIRECTORY];

/** Collections copied from another context's events over the bus: identity keeps none. */
export const MIRRORED: Array<{ collection: string; from: string }> = [];
