import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { PortfolioRunEvent, PortfolioRunStatus } from '@renopath/contracts';

/**
 * A portfolio run (docs/portfolio-runs.md): QUEUED once its file is read, RUNNING from its first
 * batch, then FINISHED when every batch is written, STOPPED by the stop call, FAILED when it cannot
 * go on. Its rows are not events: they are written in bulk, a batch per transaction, beside the
 * stream (store.ts). Pure: times arrive in the commands.
 */
export const PORTFOLIO_RUN_STREAM_PREFIX = 'portfolio-run-';
export const runStream = (run_id: string) => `${PORTFOLIO_RUN_STREAM_PREFIX}${run_id}`;

type CreatedData = Extract<PortfolioRunEvent, { type: 'PortfolioRunCreated' }>['data'];

export interface RunState {
  run_id: string | null;
  status: PortfolioRunStatus | 'NONE';
  total_rows: number;
}

export type RunCommand =
  | ({ type: 'CreateRun' } & CreatedData)
  | { type: 'StartRun'; now: string }
  | { type: 'StopRun'; now: string }
  | { type: 'FinishRun'; now: string; processed_rows: number; failed_rows: number }
  | { type: 'FailRun'; now: string; error: { code: string; message: string } };

const FINAL = new Set<RunState['status']>(['FINISHED', 'STOPPED', 'FAILED']);
export const isFinalRun = (status: RunState['status']) => FINAL.has(status);

export const portfolioRunDecider: Decider<RunCommand, PortfolioRunEvent, RunState> = {
  initialState: () => ({ run_id: null, status: 'NONE', total_rows: 0 }),

  decide(command, state) {
    if (command.type === 'CreateRun') {
      if (state.status !== 'NONE') return []; // the id comes from the request's key: a retry finds it made
      const { type: _t, ...data } = command;
      return [{ type: 'PortfolioRunCreated', data }];
    }
    if (state.status === 'NONE' || state.run_id === null) throw new DomainError(404, ['portfolio run not found']);
    const run_id = state.run_id;
    switch (command.type) {
      case 'StartRun':
        return state.status === 'QUEUED' ? [{ type: 'PortfolioRunStarted', data: { run_id, started_at: command.now } }] : [];
      case 'StopRun':
        // Stopping a run that has ended is a no-op: the client sees the run as it ended.
        return isFinalRun(state.status) ? [] : [{ type: 'PortfolioRunStopped', data: { run_id, stopped_at: command.now } }];
      case 'FinishRun':
        if (isFinalRun(state.status)) return [];
        if (command.processed_rows !== state.total_rows) {
          throw new DomainError(409, [`portfolio run ${run_id} has ${command.processed_rows} of ${state.total_rows} rows processed`]);
        }
        return [
          {
            type: 'PortfolioRunFinished',
            data: { run_id, finished_at: command.now, processed_rows: command.processed_rows, failed_rows: command.failed_rows },
          },
        ];
      case 'FailRun':
        return isFinalRun(state.status)
          ? []
          : [{ type: 'PortfolioRunFailed', data: { run_id, failed_at: command.now, error: command.error } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PortfolioRunCreated':
        return { run_id: event.data.run_id, status: 'QUEUED', total_rows: event.data.total_rows };
      case 'PortfolioRunStarted':
        return { ...state, status: 'RUNNING' };
      case 'PortfolioRunStopped':
        return { ...state, status: 'STOPPED' };
      case 'PortfolioRunFinished':
        return { ...state, status: 'FINISHED' };
      case 'PortfolioRunFailed':
        return { ...state, status: 'FAILED' };
      default:
        return state;
    }
  },
};
