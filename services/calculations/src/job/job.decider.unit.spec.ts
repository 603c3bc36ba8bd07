import { describe, expect, it } from 'vitest';
import { fold } from '@renopath/platform/service/decider.ts';
import type { CalculationJobEvent } from '@renopath/contracts';
import { isRunnable, jobDecider, type JobCommand, type JobState } from './job.decider.ts';

const JOB = '3f1c2b7e-8a4d-4e1f-9b2a-0c5d6e7f8a9b';
const T0 = '2026-11-23T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const create = (type: 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION' | 'EPC_DOCUMENT_PROCESSING' = 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION'): JobCommand => ({
  type: 'CreateJob', job_id: JOB, calculation_job_type: type,
  actor: { user_id: JOB, organization_id: JOB, client_id: 'c' }, request: {}, estate_id: null, estate_exists: false,
  external_id: null, name: null, description: null, webhook_url: null, parent_job_id: null, expires_at: at(30 * 24 * 3600),
});

/** Runs commands in order, folding each one's events, and returns the state and every event. */
function run(...commands: JobCommand[]): { state: JobState; events: CalculationJobEvent[] } {
  const events: CalculationJobEvent[] = [];
  let state = jobDecider.initialState();
  for (const c of commands) {
    const decided = jobDecider.decide(c, state);
    events.push(...decided);
    state = fold({ initialState: () => state, evolve: jobDecider.evolve }, decided);
  }
  return { state, events };
}
const start = (s: number): JobCommand => ({ type: 'StartJob', worker_id: 'w', now: at(s), lease_ms: 30_000, max_attempts: 3 });

describe('the job decider (docs/job-metadata.md)', () => {
  it('a trajectory job waits for its estate; then a worker takes it under a lease', () => {
    const waiting = run(create(), start(0));
    expect(waiting.state.status).toBe('NOT_STARTED');
    expect(waiting.events.map((e) => e.type)).toEqual(['CalculationJobCreated']);
    const taken = run(create(), { type: 'LinkEstate', estate_id: JOB }, start(0));
    expect(taken.state).toMatchObject({ status: 'RUNNING', attempt: 1, lease_until: at(30) });
  });

  it("a started job carries what it was created with and the estate it was linked to (the worker's assignment)", () => {
    const ESTATE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    const taken = run({ ...create(), request: { year_built: 1960 } } as JobCommand, { type: 'LinkEstate', estate_id: ESTATE }, start(0));
    expect(taken.state.estate_id).toBe(ESTATE);
    expect(taken.state.created).toMatchObject({ job_id: JOB, calculation_job_type: 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION', request: { year_built: 1960 } });
    expect(run(create()).state.estate_id).toBeNull();
  });

  it('a document job is ready at once', () => {
    expect(run(create('EPC_DOCUMENT_PROCESSING'), start(0)).state.status).toBe('RUNNING');
  });

  it('nobody else takes a job under a live lease; after it runs out the next attempt does, and the third lost lease fails it', () => {
    const linked: JobCommand[] = [create(), { type: 'LinkEstate', estate_id: JOB }];
    expect(run(...linked, start(0), start(10)).state.attempt).toBe(1);
    expect(run(...linked, start(0), start(31)).state.attempt).toBe(2);
    const lost = run(...linked, start(0), start(31), start(62), start(93));
    expect(lost.state.status).toBe('FAILED');
    expect(lost.events.at(-1)).toMatchObject({ type: 'CalculationJobFailed', data: { error: { code: 'WORKER_LOST' } } });
  });

  it('only the attempt that holds the job finishes it, once', () => {
    const linked: JobCommand[] = [create(), { type: 'LinkEstate', estate_id: JOB }, start(0), start(31)];
    expect(run(...linked, { type: 'FinishJob', attempt: 1, metadata: {} }).state.status).toBe('RUNNING');
    const done = run(...linked, { type: 'FinishJob', attempt: 2, metadata: { x: 1 } }, { type: 'FinishJob', attempt: 2, metadata: { x: 2 } });
    expect(done.state.status).toBe('FINISHED');
    expect(done.events.filter((e) => e.type === 'CalculationJobFinished')).toHaveLength(1);
  });

  it('stop: NOT_STARTED or RUNNING become STOPPED, a repeat changes nothing, a finished job is a 409', () => {
    expect(run(create(), { type: 'StopJob' }).state.status).toBe('STOPPED');
    expect(run(create(), { type: 'StopJob' }, { type: 'StopJob' }).events).toHaveLength(2);
    const finished: JobCommand[] = [create('EPC_DOCUMENT_PROCESSING'), start(0), { type: 'FinishJob', attempt: 1, metadata: {} }];
    expect(() => run(...finished, { type: 'StopJob' })).toThrow(/already FINISHED/);
    // A worker's result after the stop is not taken.
    const stopped = run(create('EPC_DOCUMENT_PROCESSING'), start(0), { type: 'StopJob' }, { type: 'FinishJob', attempt: 1, metadata: {} });
    expect(stopped.state.status).toBe('STOPPED');
    expect(isRunnable(stopped.state, at(100))).toBe(false);
  });

  it('is deactivated only once its expiry has passed', () => {
    expect(run(create(), { type: 'DeactivateJob', now: at(3600) }).state.deactivated).toBe(false);
    const expired = run(create(), { type: 'DeactivateJob', now: at(30 * 24 * 3600 + 1) }, { type: 'DeactivateJob', now: at(30 * 24 * 3600 + 2) });
    expect(expired.state.deactivated).toBe(true);
    expect(expired.events.filter((e) => e.type === 'CalculationJobDeactivated')).toHaveLength(1);
  });
});
