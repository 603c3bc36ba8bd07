import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { BusUnavailableError, DomainError, type Bus } from '@renopath/platform';
import { backoff, sleep } from '@renopath/platform/internal/async.ts';
import { CalculationsSubjects as S, WorkAssignment, type JobError, type ServiceRequest } from '@renopath/contracts';

/** What running one job gives: the FINISHED metadata, or why it failed. Throwing leaves the job to its lease (tried again). */
export type JobOutcome = { outcome: 'FINISHED'; metadata: Record<string, unknown> } | { outcome: 'FAILED'; error: JobError };
export type JobRunner = (assignment: WorkAssignment, worker_id: string) => Promise<JobOutcome>;

export interface WorkerOptions {
  bus: Bus;
  log: Logger;
  /** Jobs run at the same time in this process. */
  concurrency: number;
  run: JobRunner;
  busTimeoutMs: number;
  /** How long one claim waits for a job (long poll), below the bus timeout. */
  claimWaitMs?: number;
}

const internal = (body: unknown): ServiceRequest => ({ actor: null, correlation_id: `worker-${randomUUID()}`, params: {}, query: {}, body });

/**
 * A worker: takes jobs from the calculations context (`claim-job`, which hands out a job under a
 * lease) and reports each result (`complete-job`). It holds no state: a worker killed in the middle
 * of a job loses nothing but time, since the job is taken again once its lease runs out.
 */
export function startWorker(options: WorkerOptions) {
  const { bus, log } = options;
  const worker_id = `worker-${randomUUID()}`;
  const stop = new AbortController();
  const claimWaitMs = options.claimWaitMs ?? Math.min(5_000, Math.floor(options.busTimeoutMs / 2));

  async function slot(n: number) {
    let failures = 0;
    while (!stop.signal.aborted) {
      let assignment: WorkAssignment | null;
      try {
        const reply = await bus.request(S.claimJob, internal({ worker_id, wait_ms: claimWaitMs }), { timeoutMs: claimWaitMs + options.busTimeoutMs });
        assignment = reply === null ? null : WorkAssignment.parse(reply);
        failures = 0;
      } catch (err) {
        if (stop.signal.aborted) return;
        // The calculations context is not there yet (or restarting): wait and ask again, never exit.
        if (!(err instanceof BusUnavailableError)) log.warn({ err, slot: n }, 'could not take a job; trying again');
        await sleep(backoff(failures++, 200, 5_000), stop.signal);
        continue;
      }
      if (!assignment) continue;
      let outcome: JobOutcome;
      try {
        outcome = await options.run(assignment, worker_id);
      } catch (err) {
        // Not an answer about the job (a peer down, a bug): the lease runs out and the job is tried again.
        log.error({ err, job_id: assignment.job_id, attempt: assignment.attempt }, 'job attempt interrupted; it will be resumed after its lease');
        continue;
      }
      await report(assignment, outcome);
    }
  }

  async function report(assignment: WorkAssignment, outcome: JobOutcome) {
    const body = outcome.outcome === 'FINISHED'
      ? { outcome: 'FINISHED', job_id: assignment.job_id, attempt: assignment.attempt, metadata: outcome.metadata }
      : { outcome: 'FAILED', job_id: assignment.job_id, attempt: assignment.attempt, error: outcome.error };
    for (let attempt = 0; !stop.signal.aborted; attempt++) {
      try {
        await bus.request(S.completeJob, internal(body), { timeoutMs: options.busTimeoutMs });
        return;
      } catch (err) {
        if (err instanceof DomainError && err.status < 500) {
          log.error({ err, job_id: assignment.job_id }, 'result refused');
          return;
        }
        // Until the lease runs out the result is still ours to report.
        if (Date.now() > Date.parse(assignment.lease_until)) return;
        await sleep(backoff(attempt, 100, 2_000), stop.signal);
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
