import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { BusUnavailableError, DomainError, type Bus } from '@renopath/platform';
import { backoff, sleep } from '@renopath/platform/internal/async.ts';
import { inSpan, traceFields, tracedRequestOptions, type Trace } from '@renopath/platform/observability/tracing.ts';
import {
  CalculationsSubjects as S,
  WorkAssignment,
  RenewLeaseReply,
  type CompleteJobCommand,
  type JobError,
  type RenewLeaseBody,
  type ServiceRequest,
  type TrajectoryJobPlan,
} from '@renopath/contracts';

/**
 * What running one job gives: the FINISHED metadata, a trajectory job's plan (which finishes the job,
 * the estates and renovations contexts following), or why it failed. Throwing leaves the job to its
 * lease (tried again).
 */
export type JobOutcome =
  | { outcome: 'FINISHED'; metadata: Record<string, unknown> }
  | { outcome: 'PLANNED'; plan: TrajectoryJobPlan }
  | { outcome: 'FAILED'; error: JobError };
/** Runs one job; `jobs` is where its worker takes jobs, so a job that has one of its own (an EPC document) takes it there too. */
export type JobRunner = (assignment: WorkAssignment, worker_id: string, jobs: JobSource) => Promise<JobOutcome>;

/** A trajectory's EPC document job, as its parent's worker gets it: to run (`assignment`), or done before (`job`). */
export interface ChildDocumentJob {
  job_id: string;
  assignment: WorkAssignment | null;
  job: { calculation_job_status: string; metadata: Record<string, unknown> } | null;
}

/**
 * Where a worker takes jobs and reports them (`claim-job`, `complete-job`, `child-document-job`). Over the bus from any
 * process (`busJobSource`); a worker in the process that holds the context calls the context itself
 * (calculations.service.ts), with the same lease, since the job's stream decides either way.
 */
export interface JobSource {
  /** A job under a lease, waiting up to `wait_ms` for one; null when none came. */
  claim(worker_id: string, wait_ms: number, trace: Trace): Promise<WorkAssignment | null>;
  /** Records the outcome; a DomainError below 500 is a refusal (a lease taken by another attempt, say). */
  complete(command: CompleteJobCommand, trace: Trace): Promise<unknown>;
  /** Pushes out the lease of an attempt that still runs; `lease_until` null when the attempt no longer holds the job. */
  renewLease(body: RenewLeaseBody, trace: Trace): Promise<RenewLeaseReply>;
  /** The EPC document job of a trajectory job: created once, and taken at once by the parent's worker. */
  childDocumentJob(parent_job_id: string, worker_id: string, trace: Trace): Promise<ChildDocumentJob>;
}

export function busJobSource(bus: Bus, busTimeoutMs: number): JobSource {
  const internal = ({ correlation_id }: Trace, body: unknown): ServiceRequest => ({
    actor: null,
    correlation_id,
    params: {},
    query: {},
    body,
  });
  // The job's trace goes beside the message, as the gateway sends a request's.
  const sent = ({ traceparent }: Trace, timeoutMs = busTimeoutMs) => tracedRequestOptions(traceparent, timeoutMs);
  return {
    async claim(worker_id, wait_ms, trace) {
      const reply = await bus.request(S.claimJob, internal(trace, { worker_id, wait_ms }), sent(trace, wait_ms + busTimeoutMs));
      return reply === null ? null : WorkAssignment.parse(reply);
    },
    complete: (command, trace) => bus.request(S.completeJob, internal(trace, command), sent(trace)),
    async renewLease(body, trace) {
      return RenewLeaseReply.parse(await bus.request(S.renewLease, internal(trace, body), sent(trace)));
    },
    childDocumentJob: (parent_job_id, worker_id, trace) =>
      bus.request<ChildDocumentJob>(S.childDocumentJob, internal(trace, { parent_job_id, worker_id }), sent(trace)),
  };
}

export interface WorkerOptions {
  /** Where jobs come from: `busJobSource`, or the context in this process. */
  jobs: JobSource;
  log: Logger;
  /** Jobs run at the same time in this process. */
  concurrency: number;
  run: JobRunner;
  busTimeoutMs: number;
  /** How long one claim waits for a job (long poll), below the bus timeout. */
  claimWaitMs?: number;
}

const correlation = () => `worker-${randomUUID()}`;

/**
 * The trace a job's run goes on in: the request that created the job (its `traceparent` and
 * correlation id), which the job's commands, its events and its log lines carry on; a correlation id
 * of the worker's own when the job came without one.
 */
export const jobTrace = (assignment: Pick<WorkAssignment, 'correlation_id' | 'traceparent'>): Trace => ({
  correlation_id: assignment.correlation_id ?? correlation(),
  ...(assignment.traceparent ? { traceparent: assignment.traceparent } : {}),
});

/** The soonest a renewal is tried again after one that failed, when little or none of the lease is left. */
const RENEW_RETRY_FLOOR_MS = 100;

/**
 * Runs `work` while renewing the attempt's lease at each third of what is left of it, so a job that
 * runs longer than its lease is not taken from a worker still on it, while a killed worker, which
 * renews nothing, loses its job once the lease runs out. Each renewal moves the assignment's
 * `lease_until`, until which a result is still this attempt's to report.
 */
export async function keepingLease<T>(jobs: JobSource, assignment: WorkAssignment, log: Logger, work: () => Promise<T>): Promise<T> {
  const { job_id, attempt } = assignment;
  const trace = jobTrace(assignment);
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const schedule = () => {
    const left = Date.parse(assignment.lease_until) - Date.now();
    timer = setTimeout(renew, Math.max(RENEW_RETRY_FLOOR_MS, left / 3));
    timer.unref();
  };
  const renew = async () => {
    try {
      const { lease_until } = await jobs.renewLease({ job_id, attempt }, trace);
      if (done) return;
      if (lease_until === null) {
        log.warn(
          { job_id, attempt, ...traceFields(trace) },
          'the attempt no longer holds its job (taken again or stopped); its result will be refused',
        );
        return;
      }
      assignment.lease_until = lease_until;
    } catch (err) {
      if (done) return;
      log.warn({ err, job_id, attempt, ...traceFields(trace) }, 'could not renew the lease; trying again');
    }
    schedule();
  };
  schedule();
  try {
    return await work();
  } finally {
    done = true;
    clearTimeout(timer);
  }
}

/**
 * A worker: takes jobs from the calculations context (`claim-job`, which hands out a job under a
 * lease), renews the lease while it runs one (`renew-lease`) and reports each result
 * (`complete-job`). It holds no state: a worker killed in the middle of a job loses nothing but time,
 * since the job is taken again once its lease runs out.
 */
export function startWorker(options: WorkerOptions) {
  const { jobs, log } = options;
  const worker_id = `worker-${randomUUID()}`;
  const stop = new AbortController();
  const claimWaitMs = options.claimWaitMs ?? Math.min(5_000, Math.floor(options.busTimeoutMs / 2));

  async function slot(n: number) {
    let failures = 0;
    while (!stop.signal.aborted) {
      let assignment: WorkAssignment | null;
      try {
        assignment = await jobs.claim(worker_id, claimWaitMs, { correlation_id: correlation() });
        failures = 0;
      } catch (err) {
        if (stop.signal.aborted) return;
        // The calculations context is not there yet (or restarting): wait and ask again, never exit.
        if (!(err instanceof BusUnavailableError)) log.warn({ err, slot: n }, 'could not take a job; trying again');
        await sleep(backoff(failures++, 200, 5_000), stop.signal);
        continue;
      }
      if (!assignment) continue;
      const job = assignment;
      // In the trace of the request that created the job, with its correlation id on the run's log lines.
      const trace = jobTrace(job);
      await inSpan(
        `job ${job.calculation_job_type}`,
        { traceparent: job.traceparent, attributes: { 'renopath.job_id': job.job_id, 'renopath.attempt': String(job.attempt) } },
        () => attempt(job, trace),
      );
    }
  }

  async function attempt(assignment: WorkAssignment, trace: Trace) {
    let outcome: JobOutcome;
    try {
      outcome = await keepingLease(jobs, assignment, log, () => options.run(assignment, worker_id, jobs));
    } catch (err) {
      // Not an answer about the job (a peer down, a bug): the lease runs out and the job is tried again.
      log.error(
        { err, job_id: assignment.job_id, attempt: assignment.attempt, ...traceFields(trace) },
        'job attempt interrupted; it will be resumed after its lease',
      );
      return;
    }
    await report(assignment, outcome, trace);
  }

  async function report(assignment: WorkAssignment, outcome: JobOutcome, trace: Trace) {
    const { job_id, attempt } = assignment;
    const command: CompleteJobCommand =
      outcome.outcome === 'FINISHED'
        ? { outcome: 'FINISHED', job_id, attempt, metadata: outcome.metadata }
        : outcome.outcome === 'PLANNED'
          ? { outcome: 'PLANNED', job_id, attempt, plan: outcome.plan }
          : { outcome: 'FAILED', job_id, attempt, error: outcome.error };
    for (let tries = 0; !stop.signal.aborted; tries++) {
      try {
        await jobs.complete(command, trace);
        return;
      } catch (err) {
        if (err instanceof DomainError && err.status < 500) {
          log.error({ err, job_id, ...traceFields(trace) }, 'result refused');
          return;
        }
        // Until the lease runs out the result is still ours to report.
        if (Date.now() > Date.parse(assignment.lease_until)) {
          log.warn({ err, job_id, ...traceFields(trace) }, 'result not reported before the lease ran out; the job will be taken again');
          return;
        }
        await sleep(backoff(tries, 100, 2_000), stop.signal);
      }
    }
  }

  const slots = Array.from({ length: options.concurrency }, (_, n) => slot(n));
  return {
    worker_id,
    async close() {
      stop.abort();
      await Promise.allSettled(slots);
    },
  };
}
