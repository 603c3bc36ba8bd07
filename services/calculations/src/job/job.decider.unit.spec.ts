import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { fold } from '@renopath/platform/service/decider.ts';
import type { CalculationJobEvent } from '@renopath/contracts';
import { isRunnable, jobDecider, type JobCommand } from './job.decider.ts';

const JOB = '3f1c2b7e-8a4d-4e1f-9b2a-0c5d6e7f8a9b';
const ESTATE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const T0 = '2026-11-23T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
type Created = Extract<CalculationJobEvent, { type: 'CalculationJobCreated' }>['data'];
const createdData = (
  type: Created['calculation_job_type'] = 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION',
  estate_id: string | null = ESTATE,
): Created => ({
  job_id: JOB,
  calculation_job_type: type,
  actor: { user_id: JOB, organization_id: JOB, client_id: 'c' },
  request: {},
  estate_id,
  estate_exists: false,
  external_id: null,
  name: null,
  description: null,
  webhook_url: null,
  parent_job_id: null,
  expires_at: at(30 * 24 * 3600),
});

const created = (type?: Created['calculation_job_type'], estate_id?: string | null): CalculationJobEvent => ({
  type: 'CalculationJobCreated',
  data: createdData(type, estate_id),
});
const linked: CalculationJobEvent = { type: 'CalculationJobEstateLinked', data: { job_id: JOB, estate_id: ESTATE } };
const started = (attempt: number, s: number): CalculationJobEvent => ({
  type: 'CalculationJobStarted',
  data: { job_id: JOB, attempt, worker_id: 'w', lease_until: at(s + 30) },
});
const finished = (attempt: number, metadata: Record<string, unknown> = {}): CalculationJobEvent => ({
  type: 'CalculationJobFinished',
  data: { job_id: JOB, attempt, metadata },
});
const start = (s: number): JobCommand => ({ type: 'StartJob', worker_id: 'w', now: at(s), lease_ms: 30_000, max_attempts: 3 });

const spec = deciderSpec(jobDecider);

describe('the job decider (docs/job-metadata.md)', () => {
  it('is created once: a repeat of the create (same id from the same key) appends nothing', () => {
    const { job_id: _j, ...rest } = createdData();
    spec
      .given([])
      .when({ type: 'CreateJob', job_id: JOB, ...rest })
      .then([created()]);
    spec
      .given([created()])
      .when({ type: 'CreateJob', job_id: JOB, ...rest })
      .then([]);
  });

  it('a trajectory job is created on its estate and a worker takes it under a lease; an older one without waits for its link', () => {
    spec
      .given([created()])
      .when(start(0))
      .then([started(1, 0)]);
    const older = created(undefined, null);
    spec.given([older]).when(start(0)).then([]);
    spec
      .given([older, linked])
      .when(start(0))
      .then([started(1, 0)]);
  });

  it('a document job is ready at once', () => {
    spec
      .given([created('EPC_DOCUMENT_PROCESSING')])
      .when(start(0))
      .then([started(1, 0)]);
  });

  it('nobody else takes a job under a live lease; after it runs out the next attempt does, and the third lost lease fails it', () => {
    spec
      .given([created(), started(1, 0)])
      .when(start(10))
      .then([]);
    spec
      .given([created(), started(1, 0)])
      .when(start(31))
      .then([started(2, 31)]);
    spec
      .given([created(), started(1, 0), started(2, 31), started(3, 62)])
      .when(start(93))
      .then([
        {
          type: 'CalculationJobFailed',
          data: { job_id: JOB, error: { code: 'WORKER_LOST', message: 'the job was interrupted 3 times and is given up' } },
        },
      ]);
  });

  it('the attempt that holds the job keeps it by renewing its lease; no other attempt, and no job that is over, renews', () => {
    const renew = (attempt: number, s: number): JobCommand => ({ type: 'RenewLease', attempt, now: at(s), lease_ms: 30_000 });
    const renewed = (attempt: number, s: number): CalculationJobEvent => ({
      type: 'CalculationJobLeaseRenewed',
      data: { job_id: JOB, attempt, lease_until: at(s + 30) },
    });
    spec
      .given([created(), started(1, 0)])
      .when(renew(1, 20))
      .then([renewed(1, 20)]);
    // Past the lease it first had, but inside the renewed one: nobody else takes the job.
    spec
      .given([created(), started(1, 0), renewed(1, 20)])
      .when(start(40))
      .then([]);
    spec
      .given([created(), started(1, 0), renewed(1, 20)])
      .when(start(51))
      .then([started(2, 51)]);
    // A lease that ran out while nobody took the job is still the attempt's to renew: its work went on.
    spec
      .given([created(), started(1, 0)])
      .when(renew(1, 35))
      .then([renewed(1, 35)]);
    spec
      .given([created(), started(1, 0), started(2, 31)])
      .when(renew(1, 40))
      .then([]);
    spec
      .given([created(), started(1, 0), finished(1)])
      .when(renew(1, 20))
      .then([]);
    spec
      .given([created(), started(1, 0), { type: 'CalculationJobStopped', data: { job_id: JOB } }])
      .when(renew(1, 20))
      .then([]);
  });

  it('only the attempt that holds the job finishes it, once', () => {
    const twice = [created(), started(1, 0), started(2, 31)];
    spec.given(twice).when({ type: 'FinishJob', attempt: 1, metadata: {} }).then([]);
    spec
      .given(twice)
      .when({ type: 'FinishJob', attempt: 2, metadata: { x: 2 } })
      .then([finished(2, { x: 2 })]);
    spec
      .given([...twice, finished(2)])
      .when({ type: 'FinishJob', attempt: 2, metadata: { x: 3 } })
      .then([]);
  });

  it("a trajectory job FINISHES with its plan's consequences in the event, for the holding attempt only, once", () => {
    const running = [created(), started(1, 0)];
    const consequences = {
      estate_id: ESTATE,
      estate_update: null,
      roof_kinds: ['FLAT' as const],
      renovation: {
        name: null,
        year: 2026,
        items: [{ renovation_component_type: 'FLAT_ROOF_INSULATION', roof_kind: 'FLAT' as const, quantity: 1, step: 1 }],
      },
      quality: { confidence_score: 0.5, quality_label: 'C' as const },
    };
    const done: CalculationJobEvent = {
      type: 'CalculationJobFinished',
      data: { job_id: JOB, attempt: 1, metadata: { renovation_id: ESTATE }, consequences },
    };
    spec
      .given(running)
      .when({ type: 'FinishJob', attempt: 1, metadata: { renovation_id: ESTATE }, consequences })
      .then([done]);
    spec.given(running).when({ type: 'FinishJob', attempt: 2, metadata: {}, consequences }).then([]);
    spec
      .given([...running, done])
      .when({ type: 'FinishJob', attempt: 1, metadata: { renovation_id: ESTATE }, consequences })
      .then([]);
  });

  it('stop: NOT_STARTED or RUNNING become STOPPED, a repeat changes nothing, a finished job is a 409', () => {
    const stopped: CalculationJobEvent = { type: 'CalculationJobStopped', data: { job_id: JOB } };
    spec.given([created()]).when({ type: 'StopJob' }).then([stopped]);
    spec.given([created(), stopped]).when({ type: 'StopJob' }).then([]);
    spec
      .given([created('EPC_DOCUMENT_PROCESSING'), started(1, 0), finished(1)])
      .when({ type: 'StopJob' })
      .thenFails(409, /already FINISHED/);
    // A worker's result after the stop is not taken, and the job is nobody's to run.
    spec
      .given([created('EPC_DOCUMENT_PROCESSING'), started(1, 0), stopped])
      .when({ type: 'FinishJob', attempt: 1, metadata: {} })
      .then([]);
    expect(isRunnable(fold(jobDecider, [created('EPC_DOCUMENT_PROCESSING'), started(1, 0), stopped]), at(100))).toBe(false);
  });

  it('is deactivated only once its expiry has passed, once', () => {
    const deactivated: CalculationJobEvent = { type: 'CalculationJobDeactivated', data: { job_id: JOB } };
    spec
      .given([created()])
      .when({ type: 'DeactivateJob', now: at(3600) })
      .then([]);
    spec
      .given([created()])
      .when({ type: 'DeactivateJob', now: at(30 * 24 * 3600 + 1) })
      .then([deactivated]);
    spec
      .given([created(), deactivated])
      .when({ type: 'DeactivateJob', now: at(30 * 24 * 3600 + 2) })
      .then([]);
  });

  it('a command on a job that does not exist is a 404', () => {
    spec.given([]).when({ type: 'StopJob' }).thenFails(404);
  });

  it('evolve ignores an event it does not know', () => {
    const state = fold(jobDecider, [created()]);
    expect(jobDecider.evolve(state, { type: 'SomethingNew', data: {} } as never)).toBe(state);
  });
});
