import type { ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import { ReportEvents } from '@renopath/contracts';

export type { ProjectionDefinition };
import { L } from './change-log/change-log.reactor.ts';
import { R } from './referral/referral.reactors.ts';
import { C, projectReportViews, REPORT_STREAM_PREFIX, REPORT_VIEWS_PROJECTION } from './report-views/report-views.projection.ts';

export const REPORT_VIEWS: ProjectionDefinition = {
  name: REPORT_VIEWS_PROJECTION,
  collections: Object.values(C),
  streamPrefixes: [REPORT_STREAM_PREFIX],
  handle: withEventContracts(ReportEvents, projectReportViews),
};

/** The read models built from this context's own event store. */
export const PROJECTIONS: ProjectionDefinition[] = [REPORT_VIEWS];

/** Collections copied from other contexts' events over the bus (referral.reactors.ts, change-log.reactor.ts). */
export const MIRRORED: Array<{ collection: string; from: string }> = [
  { collection: R.tokens, from: 'estates' },
  { collection: R.estates, from: 'estates' },
  { collection: R.jobs, from: 'calculations' },
  { collection: R.trajectories, from: 'calculations' },
  { collection: R.agencies, from: 'identity' },
  { collection: L.changes, from: 'renovations and estates' },
];
