import type { ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import { CalculationJobEvents, IndicationEvents } from '@renopath/contracts';

export type { ProjectionDefinition };
import { ROLES } from './access/roles.reactor.ts';
import { E } from './estate-directory/estate-directory.reactor.ts';
import {
  I,
  INDICATION_STREAM_PREFIX,
  INDICATION_VIEWS_PROJECTION,
  projectIndicationViews,
} from './indication-views/indication-views.projection.ts';
import { JOB_STREAM_PREFIX } from './job/job.decider.ts';
import { J, JOB_VIEWS_PROJECTION, projectJobViews } from './job-views/job-views.projection.ts';
import { PORTFOLIO_VIEWS } from './portfolio-run/index.ts';

export const JOB_VIEWS: ProjectionDefinition = {
  name: JOB_VIEWS_PROJECTION,
  collections: Object.values(J),
  streamPrefixes: [JOB_STREAM_PREFIX],
  handle: withEventContracts(CalculationJobEvents, projectJobViews),
};

/** The indication records. */
export const INDICATION_VIEWS: ProjectionDefinition = {
  name: INDICATION_VIEWS_PROJECTION,
  collections: Object.values(I),
  streamPrefixes: [INDICATION_STREAM_PREFIX],
  handle: withEventContracts(IndicationEvents, projectIndicationViews),
};

/** The read models built from this context's own event store (process-manager checkpoints are not among them). */
export const PROJECTIONS: ProjectionDefinition[] = [JOB_VIEWS, INDICATION_VIEWS, PORTFOLIO_VIEWS];

/** Collections copied from other contexts' events over the bus: only those contexts' logs can rebuild them. */
export const MIRRORED: Array<{ collection: string; from: string }> = [
  { collection: ROLES, from: 'identity' },
  ...Object.values(E).map((collection) => ({ collection, from: 'estates' })),
];
