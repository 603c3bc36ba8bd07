import type { ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import { RenovationEvents } from '@renopath/contracts';

export type { ProjectionDefinition };
import { D } from './directory-mirror/directory-mirror.reactor.ts';
import { M } from './estate-mirror/estate-mirror.reactor.ts';
import {
  C,
  projectRenovationViews,
  RENOVATION_STREAM_PREFIX,
  RENOVATION_VIEWS_PROJECTION,
} from './renovation-views/renovation-views.projection.ts';

export const RENOVATION_VIEWS: ProjectionDefinition = {
  name: RENOVATION_VIEWS_PROJECTION,
  collections: Object.values(C),
  streamPrefixes: [RENOVATION_STREAM_PREFIX],
  handle: withEventContracts(RenovationEvents, projectRenovationViews),
};

/** The read models built from this context's own event store. */
export const PROJECTIONS: ProjectionDefinition[] = [RENOVATION_VIEWS];

/** Collections copied from another context's events over the bus: only that context's log can rebuild them. */
export const MIRRORED: Array<{ collection: string; from: string }> = [
  ...Object.values(D).map((collection) => ({ collection, from: 'identity' })),
  ...Object.values(M).map((collection) => ({ collection, from: 'estates' })),
];
