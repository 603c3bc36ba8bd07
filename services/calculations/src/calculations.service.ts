import type { Logger } from 'pino';
import { DomainError, type Bus, type Closeable, type EventStore, type ReadStore } from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { sleep } from '@renopath/platform/internal/async.ts';
import { runProcessManager } from '@renopath/platform/service/process-manager.ts';
import { actorOf, commandContext, newId, parse, readYourWrites, serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import type { CommandContext } from '@renopath/platform/service/decider.ts';
import {
  CalculationJobEvents,
  CalculationJobListQuery,
  CalculationsSubjects as S,
  ChildDocumentJobBody,
  ClaimJobBody,
  CompleteJobCommand,
  formatIssues,
  isUuid,
  isWriterRole,
  TrajectoryRequest,
  type Actor,
  type CalculationJob,
  type ServiceRequest,
  type WorkAssignment,
} from '@renopath/contracts';
import { checkConsistency } from '@renopath/energy';
import { z } from 'zod';
import { ROLES, roleKey, startRolesReactor, type RoleDoc } from './access/roles.reactor.ts';
import { E, estateOfExternalId, startEstateDirectoryReactor, type EstateMemberDoc } from './estate-directory/estate-directory.reactor.ts';
import { startEstateLinkProcess } from './estate-link/estate-link.process.ts';
import { startJobEffects } from './job-effects/job-effects.process.ts';
import type { JobPlan } from './trajectory/compute-trajectory.ts';
import { startIndications } from './indication/indication.handlers.ts';
import { fold } from '@renopath/platform/service/decider.ts';
import { isFinal, jobDecider, jobStream, JOB_STREAM_PREFIX, type JobCommand } from './job/job.decider.ts';
import { J, type JobDoc } from './job-views/job-views.projection.ts';
import { JOB_VIEWS } from './projections.ts';
import { WorkQueue } from './work-queue/work-queue.ts';
import { jobAttempts, jobDuration, jobsTotal, watchQueue } from '@renopath/platform/observability/metrics.ts';
import { currentTraceparent } from '@renopath/platform/observability/tracing.ts';
import type { JobSource } from './worker/worker.ts';

export interface CalculationsConfig {
  settleTimeoutMs: number;
  busTimeoutMs: number;
  leaseMs: number;
  maxAttempts: number;
  /** How long a job lives (docs/job-metadata.md: created + 30 days). */
  jobLifetimeMs: number;
  sweepMs: number;
}

export interface CalculationsDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  config: CalculationsConfig;
  log: Logger;
  settlement?: Settlement;
  now?: () => Date;
  /** Called for each job that reaches FINISHED, FAILED or STOPPED (the webhook dispatcher). */
  onFinal?: (job: CalculationJob, doc: JobDoc) => Promise<void>;
  /** The webhook attempts of a job (extension endpoint). */
  webhookDeliveries?: (job_id: string) => Promise<unknown[]>;
}

export interface CalculationsService {
  projection: Projection;
  queue: WorkQueue;
  /** What `claim-job` and `complete-job` do, for a worker in this process (start.ts): no bus between them. */
  jobs: JobSource;
  close(): Promise<void>;
}

type Handler = (req: ServiceRequest) => Promise<unknown>;
const notFound = () => new DomainError(404, ['calculation job not found']);
/** The statuses a job command can move a job to, for renopath_jobs_total. */
const STATUS_OF_COMMAND: Partial<Record<JobCommand['type'], readonly string[]>> = {
  CreateJob: ['NOT_STARTED'],
  StartJob: ['RUNNING', 'FAILED'],
  FinishJob: ['FINISHED'],
  FailJob: ['FAILED'],
  StopJob: ['STOPPED'],
};

/** Job ids of an EPC document job: one per trajectory job, derived from it so a resumed parent finds its child. */
export const childJobIdOf = (parent_job_id: string) => newId({ idempotency_key: `calculation-job:${parent_job_id}:epc-document` }, 'calculation-job');

export async function startCalculations(deps: CalculationsDeps): Promise<CalculationsService> {
  const { bus, eventStore: store, readStore: reads, config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const queue = new WorkQueue(reads);
  const unwatchQueue = watchQueue(queue);
  /**
   * The request each job created here came from (its trace and correlation id), until a worker takes
   * it: the job's run continues that trace. Like the queue, only a fast path: a job taken by another
   * process, or after a restart, runs in a trace of its own.
   */
  const origins = new Map<string, { traceparent?: string; correlation_id: string }>();

  const projection = runProjection({
    ...JOB_VIEWS,
    eventStore: store,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'job views projection failed; retrying'),
  });
  const settle = readYourWrites(projection, config.settleTimeoutMs);

  const decide = async (job_id: string, command: JobCommand, context: CommandContext) => {
    const result = await handleCommand(store, jobStream(job_id), jobDecider, command, context);
    // A status this command moved the job to (an appended command whose status is its own), once, where it was decided.
    if (result.position !== null && STATUS_OF_COMMAND[command.type]?.includes(result.state.status)) jobsTotal.inc({ status: result.state.status });
    if (command.type === 'CreateJob' && result.position !== null) {
      const traceparent = currentTraceparent();
      origins.set(job_id, { ...(traceparent ? { traceparent } : {}), correlation_id: context.metadata.correlation_id });
    } else if (isFinal(result.state.status)) {
      origins.delete(job_id);
    }
    return result;
  };
  const systemContext = (correlation_id: string): CommandContext => ({
    now: now().toISOString(),
    metadata: { actor: { user_id: null, client_id: null }, correlation_id, causation_id: null },
  });

  // ---- who sees which job (docs/http-contract.md: jobs follow their estate) ----

  const roleOf = async (actor: Actor) => (await reads.get<RoleDoc>(ROLES, roleKey(actor.organization_id, actor.user_id)))?.member_type ?? null;
  const isWriter = async (actor: Actor) => isWriterRole(await roleOf(actor));
  const isEstateMember = async (estate_id: string | null, user_id: string) => estate_id !== null && (await reads.get(E.members, `${estate_id}:${user_id}`)) !== null;

  /**
   * A job the caller may see: of their token's organization, and theirs as an owner or employee
   * there, as its creator, or as a member of its estate (a CLIENT); not deactivated or past its
   * expiry (docs/job-metadata.md). Anyone else does not learn that it exists.
   */
  async function visibleJob(actor: Actor, job_id: string, options: { write?: boolean } = {}): Promise<JobDoc> {
    if (!isUuid(job_id)) throw notFound();
    const doc = await reads.get<JobDoc>(J.jobs, job_id);
    if (!doc || doc.organization_id !== actor.organization_id) throw notFound();
    if (doc.job.deactivated_at !== null || (doc.job.expires_at !== null && doc.job.expires_at <= now().toISOString())) throw notFound();
    const writer = (await isWriter(actor)) || doc.user_id === actor.user_id;
    if (!writer && !(await isEstateMember(doc.job.estate_id, actor.user_id))) throw notFound();
    if (options.write && !writer) throw new DomainError(403, []);
    return doc;
  }

  // ---- the estate the job describes, then the work queue ----

  const estateLink = startEstateLinkProcess({
    eventStore: store,
    readStore: reads,
    bus,
    log,
    busTimeoutMs: config.busTimeoutMs,
    settled: async (job_id) => {
      const events = await store.readStream(jobStream(job_id));
      return events.some((e) => e.type === 'CalculationJobEstateLinked' || e.type === 'CalculationJobFailed' || e.type === 'CalculationJobStopped');
    },
    link: async (job_id, estate_id, correlation_id) => {
      await decide(job_id, { type: 'LinkEstate', estate_id }, systemContext(correlation_id));
      queue.push(job_id);
    },
    fail: async (job_id, code, message, correlation_id) => {
      await decide(job_id, { type: 'FailJob', attempt: null, error: { code, message } }, systemContext(correlation_id));
    },
  });

  // A trajectory job's plan: its writes in other contexts, then FINISHED.
  const effects = startJobEffects({
    eventStore: store,
    readStore: reads,
    bus,
    log,
    busTimeoutMs: config.busTimeoutMs,
    settleTimeoutMs: config.settleTimeoutMs,
    load: async (job_id) => fold(jobDecider, (await store.readStream(jobStream(job_id))).map((e) => ({ type: e.type, data: e.data }) as never)),
    finish: async (job_id, attempt, metadata, correlation_id) => {
      await decide(job_id, { type: 'FinishJob', attempt, metadata }, systemContext(correlation_id));
    },
    fail: async (job_id, attempt, error, correlation_id) => {
      await decide(job_id, { type: 'FailJob', attempt, error }, systemContext(correlation_id));
    },
  });

  // Final states reach the webhook dispatcher from the log (at least once; it dedupes per job and type).
  const finals = deps.onFinal
    ? runProcessManager({
      name: 'calculations-final-states',
      eventStore: store,
      readStore: reads,
      eventTypes: ['CalculationJobFinished', 'CalculationJobFailed', 'CalculationJobStopped'],
      onError: (err, event) => log.warn({ err, event_id: event?.event_id }, 'final-state reaction failed; retrying'),
      async handle(event) {
        await projection.waitFor(event.position, config.settleTimeoutMs);
        const doc = await reads.get<JobDoc>(J.jobs, event.stream.slice(JOB_STREAM_PREFIX.length));
        if (!doc) return;
        const status = doc.job.calculation_job_status;
        const seconds = (Date.parse(event.occurred_at) - Date.parse(doc.job.created_at)) / 1000;
        if (Number.isFinite(seconds)) jobDuration.observe({ status }, Math.max(0, seconds));
        jobAttempts.observe({ status }, doc.attempt);
        await deps.onFinal!(doc.job, doc);
      },
    })
    : null;

  const handlers: Record<string, Handler> = {
    async [S.createTrajectoryJob](req) {
      const actor = actorOf(req);
      // docs/http-contract.md and 5.3: per-property violations are 406, business rules 422, one message per problem.
      const parsed = TrajectoryRequest.safeParse(req.body ?? {}, { reportInput: true });
      if (!parsed.success) throw new DomainError(406, formatIssues(parsed.error.issues));
      const request = parsed.data;
      const problems = checkConsistency(request, { now: now() });
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
      await estateLink.run(createdData, req.correlation_id).catch((err: unknown) => log.warn({ err, job_id }, 'estate link deferred to the process manager'));
      await settle(result.position);
      return (await reads.get<JobDoc>(J.jobs, job_id))!.job;
    },

    async [S.getJob](req) {
      return (await visibleJob(actorOf(req), String(req.params?.['calculation_job_id'] ?? '').toLowerCase())).job;
    },

    async [S.listJobs](req) {
      const actor = actorOf(req);
      const q = parse(CalculationJobListQuery, req.query ?? {});
      const iso = now().toISOString();
      const filter = {
        organization_id: actor.organization_id,
        'job.deactivated_at': null,
        'job.expires_at': { $gt: iso },
        ...(q.external_id ? { 'job.external_id': q.external_id } : {}),
      };
      const sort = [{ field: 'created_position', order: 'DESC' as const }];
      let items: JobDoc[];
      let total: number;
      if (await isWriter(actor)) {
        ({ items, total } = await reads.query<JobDoc>(J.jobs, { filter, sort, page: q.page, pageSize: q.page_size }));
      } else {
        // A client's jobs: their own and those of the estates they are a member of (few: paged here).
        const estates = (await reads.query<EstateMemberDoc>(E.members, { filter: { user_id: actor.user_id } })).items.map((m) => m.estate_id);
        const own = (await reads.query<JobDoc>(J.jobs, { filter: { ...filter, user_id: actor.user_id }, sort })).items;
        const theirs = estates.length ? (await reads.query<JobDoc>(J.jobs, { filter: { ...filter, 'job.estate_id': { $in: estates } }, sort })).items : [];
        const all = [...new Map([...own, ...theirs].map((d) => [d.id, d])).values()].sort((a, b) => b.created_position - a.created_position);
        total = all.length;
        items = all.slice((q.page - 1) * q.page_size, q.page * q.page_size);
      }
      const total_pages = Math.max(1, Math.ceil(total / q.page_size));
      return {
        page: q.page,
        page_size: q.page_size,
        total_pages,
        prev_page: q.page > 1 ? q.page - 1 : null,
        next_page: q.page < total_pages ? q.page + 1 : null,
        total,
        has_prev_page: q.page > 1,
        has_next_page: q.page < total_pages,
        data: items.map((d) => d.job),
      };
    },

    async [S.stopJob](req) {
      const actor = actorOf(req);
      const doc = await visibleJob(actor, String(req.params?.['calculation_job_id'] ?? '').toLowerCase(), { write: true });
      const result = await decide(doc.id, { type: 'StopJob' }, commandContext(req, now()));
      await settle(result.position);
      return (await reads.get<JobDoc>(J.jobs, doc.id))!.job;
    },

    async [S.webhookDeliveries](req) {
      const doc = await visibleJob(actorOf(req), String(req.params?.['calculation_job_id'] ?? '').toLowerCase());
      return deps.webhookDeliveries ? await deps.webhookDeliveries(doc.id) : [];
    },

    // ---- workers (internal) ----

    async [S.claimJob](req) {
      const { worker_id, wait_ms } = parse(ClaimJobBody, req.body);
      return jobs.claim(worker_id, wait_ms, req.correlation_id);
    },

    async [S.completeJob](req) {
      return jobs.complete(parse(CompleteJobCommand, req.body), req.correlation_id);
    },

    /** The EPC document job of a trajectory job: created once, and taken by the parent's worker at once. */
    async [S.childDocumentJob](req) {
      const { parent_job_id, worker_id } = parse(ChildDocumentJobBody, req.body);
      const parent = await reads.get<JobDoc>(J.jobs, parent_job_id);
      if (!parent) throw notFound();
      const job_id = childJobIdOf(parent_job_id);
      const request = (await readCreated(parent_job_id))?.request ?? {};
      const created = await decide(job_id, {
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
      }, systemContext(req.correlation_id));
      const { assignment, position } = await start(job_id, worker_id, req.correlation_id);
      // The reply shows the child as its stream now is (an earlier attempt's result, when it ran before).
      await settle([created.position, position].reduce<bigint | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null));
      const doc = await reads.get<JobDoc>(J.jobs, job_id);
      return { job_id, assignment, job: doc?.job ?? null };
    },
  };

  const jobs: JobSource = {
    async claim(worker_id, wait_ms, correlation_id) {
      const deadline = Date.now() + wait_ms;
      for (;;) {
        const job_id = await queue.next(Math.max(0, deadline - Date.now()));
        if (job_id === null) return null;
        const { assignment } = await start(job_id, worker_id, correlation_id);
        if (assignment) return assignment;
        if (Date.now() >= deadline) return null;
      }
    },
    async complete(command, correlation_id) {
      const result = await decide(command.job_id, command.outcome === 'FINISHED'
        ? { type: 'FinishJob', attempt: command.attempt, metadata: command.metadata }
        : command.outcome === 'PLANNED'
          ? { type: 'RecordPlan', attempt: command.attempt, plan: command.plan }
          : { type: 'FailJob', attempt: command.attempt, error: command.error }, systemContext(correlation_id));
      if (command.outcome === 'PLANNED' && result.position !== null) {
        // At once, not after the process manager reaches the event: it makes them again only after a crash.
        effects.run(command.job_id, command.attempt, command.plan as unknown as JobPlan, correlation_id, result.state)
          .catch((err: unknown) => log.warn({ err, job_id: command.job_id }, 'job effects deferred to the process manager'));
      }
      // The status the stream now holds: the worker waits for no read model (clients read the job
      // through its projection as always; the final-state reactor follows the log).
      return { accepted: result.position !== null, status: result.state.status === 'NONE' ? null : result.state.status };
    },
  };

  async function readCreated(job_id: string) {
    const events = await store.readStream(jobStream(job_id));
    const first = events.find((e) => e.type === 'CalculationJobCreated');
    return first ? CalculationJobEvents.CalculationJobCreated.parse(first.data) : null;
  }

  /**
   * Takes a job under a lease: the assignment (null when the job is not runnable: taken, final,
   * stopped, or its attempts spent) and the position of what the start appended. The assignment
   * comes from the job's stream as the start was decided on it: no second read of the stream, and
   * no wait for the read model, which neither the worker nor the job's later commands read.
   */
  async function start(job_id: string, worker_id: string, correlation_id: string): Promise<{ assignment: WorkAssignment | null; position: bigint | null }> {
    const ctx = systemContext(correlation_id);
    const result = await decide(job_id, { type: 'StartJob', worker_id, now: ctx.now, lease_ms: config.leaseMs, max_attempts: config.maxAttempts }, ctx)
      .catch((err: unknown) => (err instanceof DomainError && err.status === 409 ? null : Promise.reject(err)));
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
      },
    };
  }

  const indications = startIndications({ eventStore: store, readStore: reads, log, now, settleTimeoutMs: config.settleTimeoutMs, isWriter });
  Object.assign(handlers, indications.handlers);

  const estateDirectory = await startEstateDirectoryReactor({ bus, readStore: reads, log, ...(deps.settlement ? { settlement: deps.settlement } : {}) });
  const roles = await startRolesReactor({ bus, readStore: reads, log, ...(deps.settlement ? { settlement: deps.settlement } : {}) });

  // The sweep: runnable jobs after a restart, leases that ran out, jobs past their expiry.
  const sweeping = new AbortController();
  // Expiry is days away: looked for once a minute, not on every sweep.
  const EXPIRY_EVERY_MS = 60_000;
  const sweeper = (async () => {
    let lastExpiry = 0;
    while (!sweeping.signal.aborted) {
      try {
        await projection.waitFor(0n, config.settleTimeoutMs).catch(() => undefined);
        await queue.sweep(now());
        if (Date.now() - lastExpiry >= EXPIRY_EVERY_MS) {
          lastExpiry = Date.now();
          for (const doc of await queue.expired(now())) {
            await decide(doc.id, { type: 'DeactivateJob', now: now().toISOString() }, systemContext(`expiry-${doc.id}`));
          }
        }
      } catch (err) {
        log.warn({ err }, 'job sweep failed; trying again');
      }
      await sleep(config.sweepMs, sweeping.signal);
    }
  })();

  // The worker's own subjects (claim, child document job) carry bodies only this context knows.
  const served: Closeable[] = await serveMessages(bus, handlers);

  return {
    projection,
    queue,
    jobs,
    async close() {
      sweeping.abort();
      unwatchQueue();
      queue.close();
      await sweeper;
      for (const s of served) await s.close();
      await estateDirectory.close();
      await roles.close();
      await finals?.close();
      await estateLink.process.close();
      await effects.process.close();
      await indications.close();
      await projection.close();
    },
  };
}

export { isFinal };
