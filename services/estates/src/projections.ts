import type { ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import { EstateEvents } from '@renopath/contracts';

export type { ProjectionDefinition };
import { ROLES } from './directory/directory.reactor.ts';
import { C, ESTATE_STREAM_PREFIX, ESTATE_VIEWS_PROJECTION, projectEstateViews } from './estate-views/estate-views.projection.ts';

export const ESTATE_VIEWS: ProjectionDefinition = {
  name: ESTATE_VIEWS_PROJECTION,
  collections: Object.values(C),
  streamPrefixes: [ESTATE_STREAM_PREFIX],
  handle: withEventContracts(EstateEvents, projectEstateViews),
};

/** The read models built from this context's own event store. */
export const PROJECTIONS: ProjectionDefinition[] = [ESTATE_VIEWS];

/** Collections copied from another context's events over the bus: only that context's log can rebuild them. */
export const MIRRORED: Array<{ collection: string; from: string }> = [{ collection: ROLES, from: 'identity' }];
