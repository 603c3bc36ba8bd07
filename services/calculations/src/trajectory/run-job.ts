import type { Logger } from 'pino';
import { BusUnavailableError, DomainError, type Bus } from '@renopath/platform';
import { backoff, sleep } from '@renopath/platform/internal/async.ts';
import {
  CalculationsSubjects as S,
  EstatesSubjects,
  RenovationsSubjects,
  TrajectoryRequest,
  WorkAssignment,
  propertyOf,
  type DataSource,
  type Estate,
  type PropertyDescription,
  type Roof,
  type TrajectoryPlan,
} from '@renopath/contracts';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import type { CalculationsServiceConfig } from '../config.ts';
import { callAs, describeEstate } from '../estate-link/estate-link.process.ts';
import { processEpcDocument } from '../epc-document/index.ts';
import { crossCheckImpact, fillGaps, type GapProviders } from '../gap-filling/index.ts';
import { applyEffect } from '@renopath/catalog';
import { httpEnergyEfficiencyProvider, httpGeometryProvider } from '../gap-filling/http-providers.ts';
import { inlinePlanner, PlanRefusedError, type Planner } from '../planner/planner-pool.ts';
import type { JobOutcome, JobRunner } from '../worker/worker.ts';

/** Test and embedding seams: other providers than the configured HTTP ones, a clock. */
export interface JobRunnerExtras {
  providers?: GapProviders;
  now?: () => Date;
  /** Where plans are made (start.ts: planner threads as configured); in the calling thread if not given. */
  planner?: Planner;
}

type Flag = { field: string; code: string; message: string };
const internal = (body: unknown) => ({ actor: null, correlation_id: `worker-${Date.now()}`, params: {}, query: {}, body });

/** The renovation a job creates: one per job, its id derived from the job's so a resumed attempt makes the same one. */
export const renovationIdOf = (job_id: string) => newId({ idempotency_key: `calculation-job:${job_id}:renovation` }, 'renovation');
const itemIdOf = (job_id: string, order: number) => newId({ idempotency_key: `calculation-job:${job_id}:step-${order}` }, 'renovation-item');

/**
 * Runs one job (docs/job-metadata.md, issue "calculation jobs"): for a trajectory, the EPC document first
 * (its own job), then the gaps (LiDAR, the energy provider, else the typology), the plan, the
 * renovation made of its steps and the estate's quality label. Every write to another context is
 * keyed by the job, so an attempt resumed after a crash repeats none of them.
 */
export function createJobRunner(config: CalculationsServiceConfig, bus: Bus, log: Logger, extras: JobRunnerExtras = {}): JobRunner {
  const now = extras.now ?? (() => new Date());
  const planner = extras.planner ?? inlinePlanner();
  const providers: GapProviders = extras.providers ?? {
    ...(config.lidarUrl ? { geometry: httpGeometryProvider({ url: config.lidarUrl, timeoutMs: config.providerTimeoutMs, breaker: config.providerBreaker, log }) } : {}),
    ...(config.energyProviderUrl ? { energy: httpEnergyEfficiencyProvider({ url: config.energyProviderUrl, timeoutMs: config.providerTimeoutMs, breaker: config.providerBreaker, log }) } : {}),
  };
  const documentOptions = { allowPrivateNetwork: config.allowPrivateNetwork, timeoutMs: config.epcDocument.timeoutMs, maxBytes: config.epcDocument.maxBytes };

  /** Another context's answer, waiting out a peer that is down or a copy that lags (404 for an estate renovations has not seen yet). */
  async function patiently<T>(what: string, lease_until: string, fn: () => Promise<T>, retryOn404 = false): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const transient = err instanceof BusUnavailableError || (err instanceof DomainError && (err.status === 503 || (retryOn404 && err.status === 404)));
        // Past half the lease the job is better left to its next attempt than kept waiting here.
        if (!transient || Date.now() + 2 * backoff(attempt, 50, 2_000) > Date.parse(lease_until)) throw err;
        log.debug({ what, attempt }, 'waiting for a peer');
        await sleep(backoff(attempt, 50, 2_000));
      }
    }
  }

  async function epcDocument(assignment: WorkAssignment, worker_id: string, url: string) {
    const child = await bus.request<{ job_id: string; assignment: WorkAssignment | null; job: { calculation_job_status: string; metadata: Record<string, unknown> } | null }>(
      S.childDocumentJob, internal({ parent_job_id: assignment.job_id, worker_id }), { timeoutMs: config.busTimeoutMs },
    );
    if (!child.assignment) {
      // Done by an earlier attempt of the parent: its result is in the child's metadata.
      const m = child.job?.metadata ?? {};
      return { job_id: child.job_id, fields: (m['fields'] ?? {}) as Partial<PropertyDescription>, flags: (m['flags'] ?? []) as Flag[], failed: child.job?.calculation_job_status === 'FAILED' ? m['error'] : null };
    }
    const result = await processEpcDocument(url, documentOptions);
    const body = result.ok
      ? { outcome: 'FINISHED', job_id: child.job_id, attempt: child.assignment.attempt, metadata: { epc_url: url, kind: result.kind, fields: result.fields, extracted: result.extracted, flags: result.flags } }
      : { outcome: 'FAILED', job_id: child.job_id, attempt: child.assignment.attempt, error: { code: result.code, message: result.message } };
    await bus.request(S.completeJob, internal(body), { timeoutMs: config.busTimeoutMs });
    return result.ok
      ? { job_id: child.job_id, fields: result.fields, flags: result.flags as Flag[], failed: null }
      : { job_id: child.job_id, fields: {}, flags: [] as Flag[], failed: { code: result.code, message: result.message } };
  }

  async function trajectory(assignment: WorkAssignment, worker_id: string): Promise<JobOutcome> {
    const request = TrajectoryRequest.parse(assignment.request);
    const given = propertyOf(request);
    const sources: Record<string, DataSource> = {};
    for (const field of Object.keys(given)) sources[field] = 'INPUT';
    const flags: Flag[] = [];
    let property: PropertyDescription = given;
    let epc_document_job_id: string | null = null;

    if (request.epc_url) {
      const doc = await epcDocument(assignment, worker_id, request.epc_url);
      epc_document_job_id = doc.job_id;
      flags.push(...doc.flags);
      if (doc.failed) {
        const failed = doc.failed as { code?: string; message?: string };
        flags.push({ field: 'epc_url', code: failed.code ?? 'EPC_DOCUMENT_FAILED', message: `the EPC document was not used: ${failed.message ?? 'it could not be read'}` });
      }
      // The client's own values win; a document value that differs from them is flagged, not taken.
      const merged: Record<string, unknown> = { ...property };
      for (const [field, value] of Object.entries(doc.fields)) {
        if (value === undefined) continue;
        if (merged[field] === undefined) {
          merged[field] = value;
          sources[field] = 'EPC_DOCUMENT';
        } else if (JSON.stringify(merged[field]) !== JSON.stringify(value) && field !== 'country') {
          flags.push({ field, code: 'EPC_DOCUMENT_DIFFERS', message: `${field} is ${JSON.stringify(merged[field])} in the request but ${JSON.stringify(value)} in the EPC document; the request's value is used` });
        }
      }
      // What the document adds must still make a valid request (it cannot smuggle an inconsistent home in).
      const checked = TrajectoryRequest.safeParse({ ...request, ...merged });
      if (checked.success) property = propertyOf(checked.data);
      else flags.push({ field: 'epc_url', code: 'EPC_DOCUMENT_UNUSABLE', message: 'values read from the EPC document were out of range and were not used' });
    }

    const estate_id = assignment.estate_id!;
    const actor = assignment.actor;
    const call = <T>(subject: string, input: Parameters<typeof callAs>[4]) => callAs<T>(bus, subject, actor, `calculation-job-${assignment.job_id}`, input, config.busTimeoutMs);
    // A score the client gave on the estate (its own form, an earlier job) calibrates the plan as it
    // calibrates the renovation and its reports, which read the estate: one home, one score.
    if (property.energy_efficiency_score === undefined) {
      const estate = await patiently('estate', assignment.lease_until, () => call<Estate>(EstatesSubjects.getEstate, { params: { estate_id } }), true);
      const score = estate.energy_context?.epc_score;
      if (typeof score === 'number') {
        property = { ...property, energy_efficiency_score: score };
        sources['energy_efficiency_score'] = 'INPUT';
      }
    }

    const filled = await fillGaps(property, sources, providers);
    flags.push(...filled.flags);
    property = filled.property;

    const planWith = async (p: PropertyDescription, src: Record<string, DataSource>): Promise<TrajectoryPlan | JobOutcome> => {
      try {
        return await planner.plan(p, { year: now().getUTCFullYear(), sources: src as never });
      } catch (err) {
        // The model refuses what it cannot describe: an answer about this job, not a crash to retry.
        // A planner thread that died is not an answer: the job is tried again after its lease.
        if (!(err instanceof PlanRefusedError)) throw err;
        return { outcome: 'FAILED', error: { code: 'NOT_PLANNABLE', message: `no trajectory could be computed: ${err.message}` } };
      }
    };
    // What the EPC document and the providers found is about the home: the estate keeps it, so the
    // renovation (which reads the estate) is valued on the same home the plan is made for.
    if (Object.values(filled.sources).some((s) => s === 'EPC_DOCUMENT' || s === 'LIDAR' || s === 'PROVIDER')) {
      await patiently('estate', assignment.lease_until, () => describeEstate(call, { job_id: assignment.job_id, estate_id, property, what: 'filled' }));
    }

    // The estate's roofs are read while the plan is made: a roof step needs them, and one after the
    // other the plan and the read were two waits on the path of the jobs that have one (a read
    // alone, with no effect, is what a job without a roof step gives up).
    const roofsRead = patiently('roofs', assignment.lease_until, () => call<Roof[]>(EstatesSubjects.listRoofs, { params: { estate_id } }), true)
      .then((roofs) => ({ roofs }), (error: unknown) => ({ error }));
    let planned = await planWith(property, filled.sources);
    if ('outcome' in planned) return planned;
    let roofs: Roof[] = [];
    if (planned.steps.some((s) => s.scope === 'ROOF')) {
      const read = await roofsRead;
      if ('error' in read) throw read.error;
      roofs = read.roofs;
    }
    // A roof step needs a roof on the estate. A request that did not describe the roof leaves the
    // estate without one while the model assumes the period's roof: that roof is added (its kind
    // only), and the plan is made again on the home as the estate now reads, so the renovation's
    // figures are the plan's. The kind stays a model assumption in the sources.
    const missing = [...new Set(planned.steps.flatMap((s) => (s.roof_kind && !roofs.some((r) => r.estate_roof_type === s.roof_kind) ? [s.roof_kind] : [])))];
    if (missing.length > 0) {
      const kinds = new Set([...roofs.map((r) => r.estate_roof_type), ...missing]);
      const roof_type = kinds.has('INCLINED') && kinds.has('FLAT') ? 'MIXED' : kinds.has('FLAT') ? 'FLAT' : 'INCLINED';
      if (property.roof_type === undefined) {
        property = { ...property, roof_type };
        filled.sources['roof_type'] = 'MODEL';
      }
      // The home as the estate will read is known before the roofs are stored: the plan is made meanwhile.
      const replanned = planWith(property, filled.sources);
      // Awaited below; if a roof cannot be added first, its failure is the one reported.
      replanned.catch(() => undefined);
      const added: Roof[] = [];
      for (const kind of missing) {
        added.push(await patiently('roof', assignment.lease_until, () => call<Roof>(EstatesSubjects.addRoof, { key: `calculation-job:${assignment.job_id}:roof-${kind}`, params: { estate_id }, body: { estate_roof_type: kind } }), true));
      }
      // Each add answers with the roof as stored (a repeated, keyed add with the first one's): no second listing.
      roofs = [...roofs, ...added];
      planned = await replanned;
      if ('outcome' in planned) return planned;
    }
    // The external provider "validates renovation impact on EPC scores" (docs/http-contract.md): its view of
    // the home after every step is compared with the model's; a large gap is a flag, never a change.
    const renovated = planned.steps.reduce<PropertyDescription>((p, step) => applyEffect(step.renovation_component_type, p, step.quantity), property);
    const impact = await crossCheckImpact(providers.energy, {
      property, renovated, scale: planned.energy_efficiency_type, model: { score_before: planned.current.epc_score, score_after: planned.final_epc_score },
    });
    flags.push(...impact.flags);
    const plan: TrajectoryPlan = { ...planned, data_quality: { ...planned.data_quality, flags: [...planned.data_quality.flags, ...flags] } };

    const renovation_id = renovationIdOf(assignment.job_id);
    const items = plan.steps.map((step) => {
      const roof = step.roof_kind ? roofs.find((r) => r.estate_roof_type === step.roof_kind) : null;
      return {
        item_id: itemIdOf(assignment.job_id, step.order),
        renovation_component_type: step.renovation_component_type,
        placement: { scope: roof ? 'ROOF' : 'GENERAL', roof_id: roof?.id ?? null, floor_id: null, room_id: null, staircase_id: null },
        count: 1,
        quantity: step.quantity,
        step: step.order,
      };
    });
    // The renovation (renovations) and the quality label (estates) are independent writes, made side
    // by side: one after the other they were two waits on every job's path. The label describes how
    // well the home is known, which a refused renovation does not change; and what refuses the
    // renovation (the estate gone, the actor no longer a writer) mostly refuses the label as well.
    const recordingQuality = patiently('quality', assignment.lease_until, () => call(EstatesSubjects.recordTrajectoryQuality, {
      key: `calculation-job:${assignment.job_id}:quality`,
      body: { estate_id, calculation_job_id: assignment.job_id, confidence_score: plan.confidence_score, quality_label: plan.quality_label },
    })).catch((err: unknown) => log.warn({ err, job_id: assignment.job_id }, 'quality label not recorded on the estate'));
    try {
      await patiently('renovation', assignment.lease_until, () => call(RenovationsSubjects.createFromTrajectory, {
        key: `calculation-job:${assignment.job_id}:renovation`,
        body: { renovation_id, estate_id, name: request.title?.trim() || null, calculation_job_id: assignment.job_id, items, year: plan.price_year },
      }), true);
    } catch (err) {
      await recordingQuality;
      // A 404 here is renovations' copy of the estate (or of the roof the job just added) lagging, or
      // renovations just back from an outage and catching up: this job has just read and written that
      // estate. It is not a reason to fail: the job is taken up again after its lease, and only a job
      // interrupted MAX_ATTEMPTS times is given up. What renovations refuses on the data fails it.
      if (err instanceof DomainError && (err.status === 403 || err.status === 400 || err.status === 409)) {
        return { outcome: 'FAILED', error: { code: 'RENOVATION_REFUSED', message: `the renovation could not be created: ${err.messages.join('; ')}` } };
      }
      throw err;
    }
    await recordingQuality;

    return { outcome: 'FINISHED', metadata: { renovation_id, ...plan, epc_document_job_id } };
  }

  return async (assignment, worker_id) => {
    if (assignment.calculation_job_type === 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION') return trajectory(assignment, worker_id);
    if (assignment.calculation_job_type === 'EPC_DOCUMENT_PROCESSING') {
      // A document job is run by its parent's worker; one found alone (its parent's worker died) is run here.
      const url = String(assignment.request['epc_url'] ?? '');
      const result = await processEpcDocument(url, documentOptions);
      return result.ok
        ? { outcome: 'FINISHED', metadata: { epc_url: url, kind: result.kind, fields: result.fields, extracted: result.extracted, flags: result.flags } }
        : { outcome: 'FAILED', error: { code: result.code, message: result.message } };
    }
    return { outcome: 'FAILED', error: { code: 'UNSUPPORTED_JOB_TYPE', message: `${assignment.calculation_job_type} jobs are not run by this service` } };
  };
}
