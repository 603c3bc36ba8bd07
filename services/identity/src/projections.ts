import type { ProjectionOptions } from '@renopath/platform/projection-runner.ts';
import { C, DIRECTORY_PROJECTION, projectDirectory } from './directory/directory.projection.ts';

/** What a projection is, apart from the stores it runs on: the service and `renopath replay` share it. */
export type ProjectionDefinition = Pick<ProjectionOptions, 'name' | 'collections' | 'streamPrefixes' | 'handle'>;

/** Reads every stream of the context (users, organizations, API clients all feed it). */
export const DIRECTORY: ProjectionDefinition = {
  name: DIRECTORY_PROJECTION,
  collections: Object.values(C),
  handle: projectDirectory,
};

/** The read models built from this context's own event store. */
export const PROJECTIONS: ProjectionDefinition[] = [DIRECTORY];

/** Collections copied from another context's events over the bus: identity keeps none. */
export const MIRRORED: Array<{ collection: string; from: string }> = [];
