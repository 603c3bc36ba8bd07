import type { Logger } from 'pino';
import { DomainError, notFound, type Bus, type EventStore, type ReadStore } from '@renopath/platform';
import { handleCommand, type CommandContext } from '@renopath/platform/service/decider.ts';
import { readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import type { Projection } from '@renopath/platform/projection-runner.ts';
import { jobsTotal } from '@renopath/platform/observability/metrics.ts';
import { currentTraceparent, type Trace } from '@renopath/platform/observability/tracing.ts';
import { isUuid, isWriterRole, type Actor, type CalculationJob, type ServiceRequest } from '@renopath/contracts';
import { ROLES, roleKey, type RoleDoc } from '../access/roles.reactor.ts';
import { E } from '../estate-directory/estate-directory.reactor.ts';
import { isFinal, jobDecider, jobStream, type JobCommand } from '../job/job.decider.ts';
import { J, type JobDoc } from '../job-views/job-views.projection.ts';
import type { WorkQueue } from '../work-queue/work-queue.ts';

export type Handler = (req: ServiceRequest) => Promise<unknown>;

export interface CalculationsConfig {
  settleTimeoutMs: number;
  busTimeoutMs: number;
  leaseMs: number;
  maxAttempts: number;
  /** How long a job lives (docs/job-metadata.md: created + 30 days). */
  jobLifetimeMs: number;
  sweepMs: number;
}

/** The statuses a job command can move a job to, for renopath_jobs_total. */
const STATUS_OF_COMMAND: Partial<Record<JobCommand['type'], readonly string[]>> = {
  CreateJob: ['NOT_STARTED'],
  StartJob: ['RUNNING', 'FAILED'],
  FinishJob: ['FINISHED'],
  FailJob: ['FAILED'],
  StopJob: ['STOPPED'],
};

export type CalculationsKit = ReturnType<typeof calculationsKit>;

/** What the context's handlers, queries and processes share: storage, the job decider, who sees which job. */
export function calculationsKit(deps: {
  bus: Bus;
  store: EventStore;
  reads: ReadStore;
  projection: Projection;
  queue: WorkQueue;
  config: CalculationsConfig;
  log: Logger;
  now: () => Date;
  /** The webhook attempts of a job (extension endpoint). */
  webhookDeliveries?: (job_id: string) => Promise<unknown[]>;
}) {
  const { store, reads, now } = deps;
  /**
   * The request each job created here came from (its trace and correlation id), until a worker takes
   * it: the job's run continues that trace. Like the queue, only a fast path: a job taken by another
   * process, or after a restart, runs in a trace of its own.
   */
  const origins = new Map<string, { traceparent?: string; correlation_id: string }>();

  const decide = async (job_id: string, command: JobCommand, context: CommandContext) => {
    const result = await handleCommand(store, jobStream(job_id), jobDecider, command, context);
    // A status this command moved the job to (an appended command whose status is its own), once, where it was decided.
    if (result.position !== null && STATUS_OF_COMMAND[command.type]?.includes(result.state.status))
      jobsTotal.inc({ status: result.state.status });
    if (command.type === 'CreateJob' && result.position !== null) {
      // The command's span when spans are recorded, else the trace its request came in.
      const traceparent = currentTraceparent() ?? context.metadata.traceparent;
      origins.set(job_id, { ...(traceparent ? { traceparent } : {}), correlation_id: context.metadata.correlation_id });
    } else if (isFinal(result.state.status)) {
      origins.delete(job_id);
    }
    return result;
  };

  /** What the context records of itself (a worker's command, a sweep): no actor, the work's trace. */
  const systemContext = ({ correlation_id, traceparent }: Trace): CommandContext => ({
    now: now().toISOString(),
    metadata: { actor: { user_id: null, client_id: null }, correlation_id, causation_id: null, ...(traceparent ? { traceparent } : {}) },
  });

  const roleOf = async (actor: Actor) =>
    (await reads.get<RoleDoc>(ROLES, roleKey(actor.organization_id, actor.user_id)))?.member_type ?? null;
  const isWriter = async (actor: Actor) => isWriterRole(await roleOf(actor));
  const isEstateMember = async (estate_id: string | null, user_id: string) =>
    estate_id !== null && (await reads.get(E.members, `${estate_id}:${user_id}`)) !== null;

  /**
   * A job the caller may see (docs/http-contract.md: jobs follow their estate): of their token's
   * organization, and theirs as an owner or employee there, as its creator, or as a member of its
   * estate (a CLIENT); not deactivated or past its expiry (docs/job-metadata.md). Anyone else does
   * not learn that it exists.
   */
  async function visibleJob(actor: Actor, job_id: string, options: { write?: boolean } = {}): Promise<JobDoc> {
    if (!isUuid(job_id)) throw notFound('calculation job');
    const doc = await reads.get<JobDoc>(J.jobs, job_id);
    if (!doc || doc.organization_id !== actor.organization_id) throw notFound('calculation job');
    if (doc.job.deactivated_at !== null || (doc.job.expires_at !== null && doc.job.expires_at <= now().toISOString()))
      throw notFound('calculation job');
    const writer = (await isWriter(actor)) || doc.user_id === actor.user_id;
    if (!writer && !(await isEstateMember(doc.job.estate_id, actor.user_id))) throw notFound('calculation job');
    if (options.write && !writer) throw new DomainError(403, []);
    return doc;
  }

  /** The job as its read model shows it, once the read model has caught up with `position`. */
  const settle = readYourWrites(deps.projection, deps.config.settleTimeoutMs);
  const jobAt = async (job_id: string, position: bigint | null): Promise<CalculationJob> => {
    await settle(position);
    return (await reads.get<JobDoc>(J.jobs, job_id))!.job;
  };

  return { ...deps, origins, decide, systemContext, isWriter, visibleJob, settle, jobAt };
}
