import type { Decider } from '@renopath/platform/service/decider.ts';
import type { ReportEvent } from '@renopath/contracts';

/** A report is one stream (`report-<id>`) holding the one event that made it. */
export const REPORT_STREAM_PREFIX = 'report-';
export const reportStream = (report_id: string) => `${REPORT_STREAM_PREFIX}${report_id}`;

export type RecordReport = { type: 'RecordReport' } & Extract<ReportEvent, { type: 'ReportCreated' }>['data'];
type State = { recorded: boolean };

/**
 * Records a rendered report. The id (and so the blob key) comes from the request's idempotency key
 * when it has one: a retry after a crash renders again into the same blob and records nothing twice.
 */
export const reportDecider: Decider<RecordReport, ReportEvent, State> = {
  initialState: () => ({ recorded: false }),
  decide(command, state) {
    if (state.recorded) return [];
    const { type: _type, ...data } = command;
    return [{ type: 'ReportCreated', data }];
  },
  evolve: (_state, event) => (event.type === 'ReportCreated' ? { recorded: true } : _state),
};
