import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type {
  CalculationJobEvent,
  CalculationJobStatus,
  CalculationJobType,
  JobError,
  TrajectoryJobConsequences,
} from '@renopath/contracts';

/**
 * A calculation job (docs/job-metadata.md): NOT_STARTED -> RUNNING -> FINISHED | FAILED, and STOPPED by the
 * stop call. Workers take it under a lease, which the running attempt renews; a lease that runs out
 * lets another worker take it again, and the third lost lease fails it. A trajectory job is created
 * with its estate (described by estates before) and FINISHED with its plan, whose consequences the
 * estates and renovations contexts draw from the event. Pure: time, ids and the lease length arrive in the command.
 */
export const JOB_STREAM_PREFIX = 'calculation-job-';
export const jobStream = (job_id: string) => `${JOB_STREAM_PREFIX}${job_id}`;

type CreatedData = Extract<CalculationJobEvent, { type: 'CalculationJobCreated' }>['data'];

export interface JobState {
  job_id: string | null;
  /** What the job was created with: a worker's assignment is made from the stream the start was decided on, not from a read model that may lag. */
  created: CreatedData | null;
  /** The estate the job describes: named at creation (older jobs: when linked). */
  estate_id: string | null;
  /** The score the estate held when the request gave none, or null. */
  estate_epc_score: number | null;
  type: CalculationJobType | null;
  status: CalculationJobStatus | 'NONE';
  /** A trajectory job runs once it has its estate; other jobs are ready at once. */
  ready: boolean;
  attempt: number;
  lease_until: string | null;
  expires_at: string | null;
  deactivated: boolean;
}

export type JobCommand =
  | ({ type: 'CreateJob' } & Extract<CalculationJobEvent, { type: 'CalculationJobCreated' }>['data'])
  | { type: 'StartJob'; worker_id: string; now: string; lease_ms: number; max_attempts: number }
  | { type: 'RenewLease'; attempt: number; now: string; lease_ms: number }
  | { type: 'FinishJob'; attempt: number; metadata: Record<string, unknown>; consequences?: TrajectoryJobConsequences }
  | { type: 'FailJob'; attempt: number | null; error: JobError }
  | { type: 'StopJob' }
  | { type: 'DeactivateJob'; now: string };

const FINAL = new Set(['FINISHED', 'FAILED', 'STOPPED']);
export const isFinal = (status: JobState['status']) => FINAL.has(status);

/** Whether a worker may take the job now (not whether the attempts are spent). */
export function isRunnable(state: JobState, now: string): boolean {
  if (!state.ready || state.deactivated) return false;
  if (state.status === 'NOT_STARTED') return true;
  return state.status === 'RUNNING' && state.lease_until !== null && state.lease_until <= now;
}

export const jobDecider: Decider<JobCommand, CalculationJobEvent, JobState> = {
  initialState: () => ({
    job_id: null,
    created: null,
    estate_id: null,
    estate_epc_score: null,
    type: null,
    status: 'NONE',
    ready: false,
    attempt: 0,
    lease_until: null,
    expires_at: null,
    deactivated: false,
  }),

  // One function per command below; this only dispatches (emmett's shape).
  decide(command, state): CalculationJobEvent[] {
    if (command.type === 'CreateJob') return createJob(command, state);
    if (state.status === 'NONE' || state.job_id === null) throw new DomainError(404, ['calculation job not found']);
    const job = { ...state, job_id: state.job_id };
    switch (command.type) {
      case 'StartJob':
        return startJob(command, job);
      case 'RenewLease':
        return renewLease(command, job);
      case 'FinishJob':
        return finishJob(command, job);
      case 'FailJob':
        return failJob(command, job);
      case 'StopJob':
        return stopJob(command, job);
      case 'DeactivateJob':
        return deactivateJob(command, job);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CalculationJobCreated':
        return {
          ...state,
          job_id: event.data.job_id,
          created: event.data,
          estate_id: event.data.estate_id,
          type: event.data.calculation_job_type,
          estate_epc_score: event.data.estate_epc_score ?? null,
          status: 'NOT_STARTED',
          // A trajectory job runs on its estate (older jobs waited for it to be linked).
          ready: event.data.calculation_job_type !== 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION' || event.data.estate_id !== null,
          expires_at: event.data.expires_at,
        };
      case 'CalculationJobEstateLinked':
        return { ...state, ready: true, estate_id: event.data.estate_id, estate_epc_score: event.data.epc_score ?? null };
      case 'CalculationJobStarted':
        return { ...state, status: 'RUNNING', attempt: event.data.attempt, lease_until: event.data.lease_until };
      case 'CalculationJobLeaseRenewed':
        return { ...state, lease_until: event.data.lease_until };
      case 'CalculationJobFinished':
        return { ...state, status: 'FINISHED', lease_until: null };
      case 'CalculationJobFailed':
        return { ...state, status: 'FAILED', lease_until: null };
      case 'CalculationJobStopped':
        return { ...state, status: 'STOPPED', lease_until: null };
      case 'CalculationJobDeactivated':
        return { ...state, deactivated: true };
      default:
        return state;
    }
  },
};

type Command<T extends JobCommand['type']> = Extract<JobCommand, { type: T }>;
/** A job that exists: every command but CreateJob needs one. */
type Existing = JobState & { job_id: string };

function createJob(command: Command<'CreateJob'>, state: JobState): CalculationJobEvent[] {
  // Created once: the id comes from the request (and its idempotency key), so a retry finds it.
  if (state.status !== 'NONE') return [];
  const { type: _t, ...data } = command;
  return [{ type: 'CalculationJobCreated', data }];
}

/** When a lease taken or renewed at the command's time runs out. */
const leaseEnd = ({ now, lease_ms }: { now: string; lease_ms: number }) => new Date(Date.parse(now) + lease_ms).toISOString();

function startJob(command: Command<'StartJob'>, state: Existing): CalculationJobEvent[] {
  if (!isRunnable(state, command.now)) return [];
  const { job_id } = state;
  if (state.attempt >= command.max_attempts) {
    return [
      {
        type: 'CalculationJobFailed',
        data: { job_id, error: { code: 'WORKER_LOST', message: `the job was interrupted ${state.attempt} times and is given up` } },
      },
    ];
  }
  const lease_until = leaseEnd(command);
  return [{ type: 'CalculationJobStarted', data: { job_id, attempt: state.attempt + 1, worker_id: command.worker_id, lease_until } }];
}

/**
 * The attempt that holds the job pushes its lease out. One whose lease ran out may still renew while
 * no other attempt took the job: the work was never interrupted. Anything else is not this attempt's
 * to renew, and decides nothing (the worker hears it holds no lease).
 */
function renewLease(command: Command<'RenewLease'>, state: Existing): CalculationJobEvent[] {
  if (state.status !== 'RUNNING' || command.attempt !== state.attempt) return [];
  const lease_until = leaseEnd(command);
  return [{ type: 'CalculationJobLeaseRenewed', data: { job_id: state.job_id, attempt: command.attempt, lease_until } }];
}

function finishJob(command: Command<'FinishJob'>, state: Existing): CalculationJobEvent[] {
  // A worker whose lease was taken over, or a repeat of a result already stored, changes nothing.
  if (state.status !== 'RUNNING' || command.attempt !== state.attempt) return [];
  const consequences = command.consequences ? { consequences: command.consequences } : {};
  return [
    {
      type: 'CalculationJobFinished',
      data: { job_id: state.job_id, attempt: command.attempt, metadata: command.metadata, ...consequences },
    },
  ];
}

function failJob(command: Command<'FailJob'>, state: Existing): CalculationJobEvent[] {
  if (isFinal(state.status)) return [];
  if (command.attempt !== null && (state.status !== 'RUNNING' || command.attempt !== state.attempt)) return [];
  return [{ type: 'CalculationJobFailed', data: { job_id: state.job_id, error: command.error } }];
}

function stopJob(_command: Command<'StopJob'>, state: Existing): CalculationJobEvent[] {
  if (state.status === 'STOPPED') return [];
  if (isFinal(state.status)) throw new DomainError(409, [`the calculation job is already ${state.status} and cannot be stopped`]);
  return [{ type: 'CalculationJobStopped', data: { job_id: state.job_id } }];
}

function deactivateJob(command: Command<'DeactivateJob'>, state: Existing): CalculationJobEvent[] {
  if (state.deactivated || state.expires_at === null || state.expires_at > command.now) return [];
  return [{ type: 'CalculationJobDeactivated', data: { job_id: state.job_id } }];
}
