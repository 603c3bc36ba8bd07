import { describe, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import type { PortfolioRunEvent } from '@renopath/contracts';
import { portfolioRunDecider } from './portfolio-run.decider.ts';

const RUN = '5b0a6c7e-1d2f-4a3b-9c4d-5e6f7a8b9c0d';
const T = '2026-12-03T10:00:00.000Z';
const createdData = {
  run_id: RUN,
  actor: { user_id: RUN, organization_id: RUN, client_id: 'c' },
  name: 'homes.csv',
  webhook_url: null,
  total_rows: 3,
  batches: 1,
  ignored_columns: [],
  created_at: T,
};
const created: PortfolioRunEvent = { type: 'PortfolioRunCreated', data: createdData };
const started: PortfolioRunEvent = { type: 'PortfolioRunStarted', data: { run_id: RUN, started_at: T } };
const spec = deciderSpec(portfolioRunDecider);

describe('the portfolio run decider', () => {
  it('is created once (a retry with the same key finds it made)', () => {
    spec
      .given([])
      .when({ type: 'CreateRun', ...createdData })
      .then([created]);
    spec
      .given([created])
      .when({ type: 'CreateRun', ...createdData })
      .then([]);
  });

  it('starts once, from QUEUED', () => {
    spec.given([created]).when({ type: 'StartRun', now: T }).then([started]);
    spec.given([created, started]).when({ type: 'StartRun', now: T }).then([]);
  });

  it('finishes only when every row is processed: a row lost or counted twice is refused', () => {
    spec
      .given([created, started])
      .when({ type: 'FinishRun', now: T, processed_rows: 3, failed_rows: 1 })
      .then([{ type: 'PortfolioRunFinished', data: { run_id: RUN, finished_at: T, processed_rows: 3, failed_rows: 1 } }]);
    spec
      .given([created, started])
      .when({ type: 'FinishRun', now: T, processed_rows: 2, failed_rows: 0 })
      .thenFails(409, /2 of 3/);
    spec.given([created, started]).when({ type: 'FinishRun', now: T, processed_rows: 4, failed_rows: 0 }).thenFails(409);
  });

  it('a stopped run stays stopped: no finish after it, and a second stop appends nothing', () => {
    const stopped: PortfolioRunEvent = { type: 'PortfolioRunStopped', data: { run_id: RUN, stopped_at: T } };
    spec.given([created, started]).when({ type: 'StopRun', now: T }).then([stopped]);
    spec.given([created, started, stopped]).when({ type: 'StopRun', now: T }).then([]);
    spec.given([created, started, stopped]).when({ type: 'FinishRun', now: T, processed_rows: 3, failed_rows: 0 }).then([]);
  });

  it('an unknown run is 404', () => {
    spec.given([]).when({ type: 'StopRun', now: T }).thenFails(404);
  });
});
