import { DomainError, notFound } from '@renopath/platform';
import { actorOf, commandContext, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  CalculationJobEvents,
  ChildDocumentJobBody,
  ClaimJobBody,
  CompleteJobCommand,
  formatIssues,
  TrajectoryRequest,
  type WorkAssignment,
} from '@renopath/contracts';
import { checkConsistency } from '@renopath/energy';
import { meteredUseProblems } from '../money/metered-check.ts';
import { estateOfExternalId } from '../estate-directory/estate-directory.reactor.ts';
import type { EstateLink } from '../estate-link/estate-link.process.ts';
import type { JobEffects } from '../job-effects/job-effects.process.ts';
import { J, type JobDoc } from '../job-views/job-views.projection.ts';
import type { CalculationsKit, Handler } from '../kit/calculations-kit.ts';
import type { JobPlan } from '../trajectory/compute-trajectory.ts';
import type { JobSource } from '../worker/worker.ts';
import { jobStream } from './job.decider.ts';

/** Job ids of an EPC document job: one per trajectory job, derived from it so a resumed parent finds its child. */
export const childJobIdOf = (parent_job_id: string) =>
  newId({ idempotency_key: `calculation-job:${parent_job_id}:epc-document` }, 'calculation-job');

const jobIdOf = (req: { params?: Record<string, string> }) => String(req.params?.['calculation_job_id'] ?? '').toLowerCase();

/**
 * The job's commands: create and stop (HTTP), and the workers' claim, report and child document job.
 * A worker in this process calls `jobs` directly (start.ts); one in another process, the same
 * through the bus.
 */
export function jobHandlers(kit: CalculationsKit, workflows: Workflows) {
  const { now, decide } = kit;
  const jobs = jobSource(kit, workflows);

  const handlers: Record<'create' | 'stop' | 'claim' | 'complete' | 'childDocumentJob', Handler> = {
    create: (req) => createTrajectoryJob(kit, workflows, req),

    async stop(req) {
      const doc = await kit.visibleJob(actorOf(req), jobIdOf(req), { write: true });
      const result = await decide(doc.id, { type: 'StopJob' }, commandContext(req, now()));
      return kit.jobAt(doc.id, result.position);
    },

    async claim(req) {
      const { worker_id, wait_ms } = parse(ClaimJobBody, req.body);
      return jobs.claim(worker_id, wait_ms, req.correlation_id);
    },

    async complete(req) {
      return jobs.complete(parse(CompleteJobCommand, req.body), req.correlation_id);
    },

    async childDocumentJob(req) {
      const { parent_job_id, worker_id } = parse(ChildDocumentJobBody, req.body);
      return jobs.childDocumentJob(parent_job_id, worker_id, req.correlation_id);
    },
  };

  return { handlers, jobs };
}

type Workflows = { estateLink: EstateLink; effects: JobEffects };

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
  correlation_id: string,
): Promise<{ assignment: WorkAssignment | null; position: bigint | null }> {
  const { config, decide, systemContext, origins } = kit;
  const ctx = systemContext(correlation_id);
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

/** What a worker calls: claim a job, report on it, and make the EPC document job a trajectory job waits for. */
function jobSource(kit: CalculationsKit, workflows: Workflows): JobSource {
  const { reads, config, log, queue, now, decide, systemContext } = kit;
  return {
    async claim(worker_id, wait_ms, correlation_id) {
      const deadline = Date.now() + wait_ms;
      for (;;) {
        const job_id = await queue.next(Math.max(0, deadline - Date.now()));
        if (job_id === null) return null;
        const { assignment } = await takeLease(kit, job_id, worker_id, correlation_id);
        if (assignment) return assignment;
        if (Date.now() >= deadline) return null;
      }
    },
    async complete(command, correlation_id) {
      const result = await decide(
        command.job_id,
        command.outcome === 'FINISHED'
          ? { type: 'FinishJob', attempt: command.attempt, metadata: command.metadata }
          : command.outcome === 'PLANNED'
            ? { type: 'RecordPlan', attempt: command.attempt, plan: command.plan }
            : { type: 'FailJob', attempt: command.attempt, error: command.error },
        systemContext(correlation_id),
      );
      if (command.outcome === 'PLANNED' && result.position !== null) {
        // At once, not after the process manager reaches the event: it makes them again only after a crash.
        workflows.effects
          .run(command.job_id, command.attempt, command.plan as unknown as JobPlan, correlation_id, result.state)
          .catch((err: unknown) => log.warn({ err, job_id: command.job_id }, 'job effects deferred to the process manager'));
      }
      // The status the stream now holds: the worker waits for no read model (clients read the job
      // through its projection as always; the final-state reactor follows the log).
      return { accepted: result.position !== null, status: result.state.status === 'NONE' ? null : result.state.status };
    },
    async childDocumentJob(parent_job_id, worker_id, correlation_id) {
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
        systemContext(correlation_id),
      );
      const { assignment, position } = await takeLease(kit, job_id, worker_id, correlation_id);
      // The reply shows the child as its stream now is (an earlier attempt's result, when it ran before).
      await kit.settle([created.position, position].reduce<bigint | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null));
      const doc = await reads.get<JobDoc>(J.jobs, job_id);
      return { job_id, assignment, job: doc?.job ?? null };
    },
  };
}

/** POST /calculation-jobs: a trajectory job, its estate linked before the answer. */
async function createTrajectoryJob(kit: CalculationsKit, workflows: Workflows, req: Parameters<Handler>[0]) {
  const { reads, config, log, now, decide } = kit;
  const actor = actorOf(req);
  // docs/http-contract.md: per-property violations are 406, business rules 422, one message per problem.
  const parsed = TrajectoryRequest.safeParse(req.body ?? {}, { reportInput: true });
  if (!parsed.success) throw new DomainError(406, formatIssues(parsed.error.issues));
  const request = parsed.data;
  const problems = [...checkConsistency(request, { now: now() }), ...meteredUseProblems(request)];
  if (problems.length > 0) throw new DomainError(422, problems);

  const job_id = newId(req, 'calculation-job');
  const existing = request.external_id ? await estateOfExternalId(reads, actor.organization_id, request.external_id) : null;
  const created = now();
  const command = {
    type: 'CreateJob' as const,
    job_id,
    calculation_job_type: 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION' as const,
    actor: { user_id: actor.user_id, organization_id: actor.organization_id, client_id: actor.client_id },
    request: request as Record<string, unknown>,
    // A new estate's id is estates' to give: the link names it.
    estate_id: existing,
    estate_exists: existing !== null,
    external_id: request.external_id ?? null,
    name: request.title ?? null,
    description: request.description ?? null,
    webhook_url: request.webhook_url ?? null,
    parent_job_id: null,
    expires_at: new Date(created.getTime() + config.jobLifetimeMs).toISOString(),
  };
  const result = await decide(job_id, command, commandContext(req, created));
  // The estate is written before the answer, so GET /estates/{estate_id} finds it (read your writes).
  // This request does it at once; the process manager resumes it if the process dies first.
  const { type: _t, ...createdData } = command;
  const linked = await workflows.estateLink.run(createdData, req.correlation_id).catch((err: unknown) => {
    log.warn({ err, job_id }, 'estate link deferred to the process manager');
    return null;
  });
  // The answer shows the job as linked, with the estate id estates gave.
  return kit.jobAt(job_id, linked ?? result.position);
}
