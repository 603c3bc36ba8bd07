import type { ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import { PassportEvents, ReportEvents } from '@renopath/contracts';

export type { ProjectionDefinition };
import { L } from './change-log/change-log.reactor.ts';
import { R } from './referral/referral.reactors.ts';
import { C, projectReportViews, REPORT_STREAM_PREFIX, REPORT_VIEWS_PROJECTION } from './report-views/report-views.projection.ts';
import { PASSPORT_STREAM_PREFIX } from './passport/passport.decider.ts';
import { PASSPORT_COLLECTIONS, projectPassportViews } from './passport-views/passport-views.projection.ts';

/**
 * The context's read models: reports and renovation passports, one projection so that a write of
 * either is read back by waiting for one position (read your writes).
 */
export const REPORT_VIEWS: ProjectionDefinition = {
  name: REPORT_VIEWS_PROJECTION,
  collections: [...Object.values(C), ...Object.values(PASSPORT_COLLECTIONS)],
  streamPrefixes: [REPORT_STREAM_PREFIX, PASSPORT_STREAM_PREFIX],
  handle: withEventContracts({ ...ReportEvents, ...PassportEvents }, (event, tx) =>
    event.stream.startsWith(PASSPORT_STREAM_PREFIX) ? projectPassportViews(event, tx) : projectReportViews(event, tx),
  ),
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
