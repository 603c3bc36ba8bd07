import { DomainError, notFound } from '@renopath/platform';
import { actorOf, commandContext, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import type { Trace } from '@renopath/platform/observability/tracing.ts';
import {
  CalculationJobEvents,
  ChildDocumentJobBody,
  ClaimJobBody,
  CompleteJobCommand,
  formatIssues,
  RenewLeaseBody,
  renovationIdOfJob,
  TrajectoryJobEstate,
  TrajectoryRequest,
  type WorkAssignment,
} from '@renopath/contracts';
import { J, type JobDoc } from '../job-views/job-views.projection.ts';
import type { CalculationsKit, Handler } from '../kit/calculations-kit.ts';
import type { JobSource } from '../worker/worker.ts';
import { jobStream, type JobCommand, type JobState } from './job.decider.ts';
import { trajectoryRequestProblems } from './trajectory-checks.ts';

/** Job ids of an EPC document job: one per trajectory job, derived from it so a resumed parent finds its child. */
export const childJobIdOf = (parent_job_id: string) =>
  newId({ idempotency_key: `calculation-job:${parent_job_id}:epc-document` }, 'calculation-job');

const jobIdOf = (req: { params?: Record<string, string> }) => String(req.params?.['calculation_job_id'] ?? '').toLowerCase();

/**
 * The job's commands: create and stop (HTTP), and the workers' claim, report and child document job.
 * A worker in this process calls `jobs` directly (start.ts); one in another process, the same
 * through the bus.
 */
export function jobHandlers(kit: CalculationsKit) {
  const { now, decide } = kit;
  const jobs = jobSource(kit);

  const handlers: Record<'create' | 'stop' | 'claim' | 'complete' | 'renewLease' | 'childDocumentJob', Handler> = {
    create: (req) => createTrajectoryJob(kit, req),

    async stop(req) {
      const doc = await kit.visibleJob(actorOf(req), jobIdOf(req), { write: true });
      const result = await decide(doc.id, { type: 'StopJob' }, commandContext(req, now()));
      return kit.jobAt(doc.id, result.position);
    },

    async claim(req) {
      const { worker_id, wait_ms } = parse(ClaimJobBody, req.body);
      return jobs.claim(worker_id, wait_ms, req);
    },

    async complete(req) {
      return jobs.complete(parse(CompleteJobCommand, req.body), req);
    },

    async renewLease(req) {
      return jobs.renewLease(parse(RenewLeaseBody, req.body), req);
    },

    async childDocumentJob(req) {
      const { parent_job_id, worker_id } = parse(ChildDocumentJobBody, req.body);
      return jobs.childDocumentJob(parent_job_id, worker_id, req);
    },
  };

  return { handlers, jobs };
}

async function readCreated(kit: CalculationsKit, job_id: string) {
  const { store } = kit;
  const events = await store.readStream(jobStream(job_id));
  const first = events.find((e) => e.type === 'CalculationJobCreated');
  return first ? CalculationJobEvents.CalculationJobCreated.parse(first.data) : null;
}

/**
 * Takes a job under a lease: the assignment (null when the job is not runnable: taken, final,
 * stopped, planned, or its attempts spent) and the position of what the start appended. The
 * assignment comes from the job's stream as the start was decided on it: no second read of the
 * stream, and no wait for the read model, which neither the worker nor the job's later commands read.
 */
async function takeLease(
  kit: CalculationsKit,
  job_id: string,
  worker_id: string,
  trace: Trace,
): Promise<{ assignment: WorkAssignment | null; position: bigint | null }> {
  const { config, decide, systemContext, origins } = kit;
  const ctx = systemContext(trace);
  const result = await decide(
    job_id,
    { type: 'StartJob', worker_id, now: ctx.now, lease_ms: config.leaseMs, max_attempts: config.maxAttempts },
    ctx,
  ).catch((err: unknown) => (err instanceof DomainError && err.status === 409 ? null : Promise.reject(err)));
  const position = result?.position ?? null;
  const created = result?.state.created;
  if (!result || position === null || result.state.status !== 'RUNNING' || !created) return { assignment: null, position };
  const origin = origins.get(job_id);
  origins.delete(job_id);
  return {
    position,
    assignment: {
      ...origin,
      job_id,
      attempt: result.state.attempt,
      calculation_job_type: created.calculation_job_type,
      actor: created.actor,
      request: created.request,
      estate_id: result.state.estate_id ?? created.estate_id,
      lease_until: result.state.lease_until!,
      ...(result.state.estate_epc_score !== null ? { estate_epc_score: result.state.estate_epc_score } : {}),
    },
  };
}

/** What a worker calls: claim a job, keep its lease, report on it, and make the EPC document job a trajectory job waits for. */
function jobSource(kit: CalculationsKit): JobSource {
  const { reads, config, queue, now, decide, systemContext } = kit;
  return {
    async claim(worker_id, wait_ms, trace) {
      const deadline = Date.now() + wait_ms;
      for (;;) {
        const job_id = await queue.next(Math.max(0, deadline - Date.now()));
        if (job_id === null) return null;
        const { assignment } = await takeLease(kit, job_id, worker_id, trace);
        if (assignment) return assignment;
        if (Date.now() >= deadline) return null;
      }
    },
    async complete(command, trace) {
      const result = await decide(command.job_id, outcomeCommand(command, await estateOf(kit, command)), systemContext(trace));
      // The status the stream now holds: the worker waits for no read model (clients read the job
      // through its projection as always; the final-state reactor follows the log).
      return { accepted: result.position !== null, status: result.state.status === 'NONE' ? null : result.state.status };
    },
    async renewLease({ job_id, attempt }, trace) {
      const ctx = systemContext(trace);
      const { state } = await decide(job_id, { type: 'RenewLease', attempt, now: ctx.now, lease_ms: config.leaseMs }, ctx);
      // Renewed only while this attempt holds the job; otherwise it hears so and its result will be refused.
      return { lease_until: state.status === 'RUNNING' && state.attempt === attempt ? state.lease_until : null };
    },
    async childDocumentJob(parent_job_id, worker_id, trace) {
      const parent = await reads.get<JobDoc>(J.jobs, parent_job_id);
      if (!parent) throw notFound('calculation job');
      const job_id = childJobIdOf(parent_job_id);
      const request = (await readCreated(kit, parent_job_id))?.request ?? {};
      const created = await decide(
        job_id,
        {
          type: 'CreateJob',
          job_id,
          calculation_job_type: 'EPC_DOCUMENT_PROCESSING',
          actor: { user_id: parent.user_id, organization_id: parent.organization_id, client_id: parent.client_id },
          request: { epc_url: request['epc_url'] ?? null },
          estate_id: parent.job.estate_id,
          estate_exists: true,
          external_id: parent.job.external_id,
          name: parent.job.name,
          description: null,
          webhook_url: null,
          parent_job_id,
          expires_at: parent.job.expires_at ?? new Date(now().getTime() + config.jobLifetimeMs).toISOString(),
        },
        systemContext(trace),
      );
      const { assignment, position } = await takeLease(kit, job_id, worker_id, trace);
      // The reply shows the child as its stream now is (an earlier attempt's result, when it ran before).
      await kit.settle([created.position, position].reduce<bigint | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null));
      const doc = await reads.get<JobDoc>(J.jobs, job_id);
      return { job_id, assignment, job: doc?.job ?? null };
    },
  };
}

/** The estate a trajectory job's plan is for (the job's, from its stream); null for any other outcome. */
async function estateOf(kit: CalculationsKit, command: CompleteJobCommand): Promise<string | null> {
  if (command.outcome !== 'PLANNED') return null;
  const events = await kit.store.readStream(jobStream(command.job_id));
  let estate_id: string | null = null;
  for (const e of events) {
    if (e.type === 'CalculationJobCreated' || e.type === 'CalculationJobEstateLinked')
      estate_id = (e.data as Pick<JobState, 'estate_id'>).estate_id;
  }
  return estate_id;
}

/**
 * A worker's outcome as the job's command. A trajectory job's plan FINISHES it: its result is the
 * metadata (with the renovation the job names, `renovationIdOfJob`), and what it asks of the estates
 * and renovations contexts goes with the event for them to follow.
 */
function outcomeCommand(command: CompleteJobCommand, estate_id: string | null): JobCommand {
  const { attempt } = command;
  switch (command.outcome) {
    case 'FINISHED':
      return { type: 'FinishJob', attempt, metadata: command.metadata };
    case 'FAILED':
      return { type: 'FailJob', attempt, error: command.error };
    case 'PLANNED': {
      const metadata = { renovation_id: renovationIdOfJob(command.job_id), ...command.plan.result };
      if (!estate_id) return { type: 'FailJob', attempt, error: { code: 'NO_ESTATE', message: 'the job names no estate' } };
      return { type: 'FinishJob', attempt, metadata, consequences: { estate_id, ...command.plan.consequences } };
    }
  }
}

/**
 * POST /calculation-jobs: a trajectory job on the estate estates described for the request (the
 * gateway asked it first, and names it in the query with the score it holds).
 */
async function createTrajectoryJob(kit: CalculationsKit, req: Parameters<Handler>[0]) {
  const { config, now, decide, queue } = kit;
  const actor = actorOf(req);
  // docs/http-contract.md: per-property violations are 406, business rules 422, one message per problem.
  const parsed = TrajectoryRequest.safeParse(req.body ?? {}, { reportInput: true });
  if (!parsed.success) throw new DomainError(406, formatIssues(parsed.error.issues));
  const request = parsed.data;
  const problems = trajectoryRequestProblems(request, now());
  if (problems.length > 0) throw new DomainError(422, problems);
  const estate = TrajectoryJobEstate.safeParse(req.query ?? {});
  if (!estate.success) throw new DomainError(400, ['the job needs the estate estates described for it (estate_id)']);

  const job_id = newId(req, 'calculation-job');
  const created = now();
  const command = {
    type: 'CreateJob' as const,
    job_id,
    calculation_job_type: 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION' as const,
    actor: { user_id: actor.user_id, organization_id: actor.organization_id, client_id: actor.client_id },
    request: request as Record<string, unknown>,
    estate_id: estate.data.estate_id.toLowerCase(),
    estate_exists: estate.data.estate_exists ?? false,
    ...(typeof estate.data.estate_epc_score === 'number' ? { estate_epc_score: estate.data.estate_epc_score } : {}),
    external_id: request.external_id ?? null,
    name: request.title ?? null,
    description: request.description ?? null,
    webhook_url: request.webhook_url ?? null,
    parent_job_id: null,
    expires_at: new Date(created.getTime() + config.jobLifetimeMs).toISOString(),
  };
  const result = await decide(job_id, command, commandContext(req, created));
  if (result.position !== null) queue.push(job_id);
  return kit.jobAt(job_id, result.position);
}
