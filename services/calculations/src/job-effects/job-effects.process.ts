import type { Logger } from 'pino';
import { DomainError, type Bus, type EventStore, type ReadStore, type RecordedEvent } from '@renopath/platform';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import { settleAcrossContexts } from '@renopath/platform/service/settlement.ts';
import { CalculationJobEvents, EstatesSubjects, RenovationsSubjects, type JobError, type Roof } from '@renopath/contracts';
import { callAs, describeEstate, estateKey, type EstateCall } from '../estate-link/estate-link.process.ts';
import type { JobState } from '../job/job.decider.ts';
import type { JobPlan } from '../trajectory/compute-trajectory.ts';

/** The renovation a job creates: one per job, its id derived from the job's so a repeated effect makes the same one. */
export const renovationIdOf = (job_id: string) => newId({ idempotency_key: estateKey(job_id, 'renovation') }, 'renovation');
/** A step's own item keeps the key `step-N`; a measure joined to the step (ventilation) adds its type to it. */
const itemIdOf = (job_id: string, order: number, joined?: string) =>
  newId({ idempotency_key: estateKey(job_id, joined ? `step-${order}-${joined}` : `step-${order}`) }, 'renovation-item');

export interface JobEffectsOptions {
  eventStore: EventStore;
  readStore: ReadStore;
  bus: Bus;
  log: Logger;
  busTimeoutMs: number;
  settleTimeoutMs: number;
  /** The job as its stream now folds (the actor, the estate, whether it is still RUNNING). */
  load(job_id: string): Promise<JobState>;
  finish(job_id: string, attempt: number, metadata: Record<string, unknown>, correlation_id: string): Promise<void>;
  fail(job_id: string, attempt: number, error: JobError, correlation_id: string): Promise<void>;
}

export interface JobEffects {
  /** Makes a recorded plan's writes and finishes the job; the context runs it at once, the process manager again after a crash. */
  run(job_id: string, attempt: number, plan: JobPlan, correlation_id: string, state?: JobState): Promise<void>;
  process: ProcessManager;
}

/** Whether estates still shows the estate to the job's actor (a 4xx: gone or no longer theirs; anything else is asked again later). */
async function estateStillThere(call: EstateCall, estate_id: string): Promise<boolean> {
  try {
    await call(EstatesSubjects.getEstate, { params: { estate_id } });
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.status < 500) return false;
    throw err;
  }
}

/**
 * The job-effects process manager: on `CalculationJobPlanned`, the plan's writes in the estates and
 * renovations contexts (the estate as filled, the roofs the steps need, the renovation, the quality
 * label), each keyed by the job so that a repeat writes nothing twice; then the job is FINISHED (or
 * FAILED when renovations refuses the renovation). The other contexts answer for their own ids: the
 * roofs' ids come from estates, and a renovation is made only once renovations' copy of the estate
 * has seen this job's writes there (the settle protocol), never by retrying a 404.
 */
export function startJobEffects(options: JobEffectsOptions): JobEffects {
  const { bus, log } = options;

  async function apply(job_id: string, attempt: number, plan: JobPlan, correlation_id: string, known?: JobState): Promise<void> {
    const state = known ?? (await options.load(job_id));
    if (state.status !== 'RUNNING' || state.planned_attempt !== attempt || !state.created || !state.estate_id) return;
    const estate_id = state.estate_id;
    const workflow = `calculation-job-${job_id}`;
    const call: EstateCall = (subject, input) => callAs(bus, subject, state.created!.actor, workflow, input, options.busTimeoutMs);

    let wroteEstate = false;
    if (plan.estate_update) {
      await describeEstate(call, { job_id, estate_id, property: plan.estate_update, what: 'filled' });
      wroteEstate = true;
    }
    let roofs: Roof[] = [];
    if (plan.roof_kinds.length > 0) {
      // A copy: in one process the reply is estates' read-model list itself, shared and frozen.
      roofs = [...(await call<Roof[]>(EstatesSubjects.listRoofs, { params: { estate_id } }))];
      for (const kind of plan.roof_kinds) {
        if (roofs.some((r) => r.estate_roof_type === kind)) continue;
        // A keyed add answers a repeat with the first one's roof.
        roofs.push(
          await call<Roof>(EstatesSubjects.addRoof, {
            key: estateKey(job_id, `roof-${kind}`),
            params: { estate_id },
            body: { estate_roof_type: kind },
          }),
        );
        wroteEstate = true;
      }
    }
    // Renovations values the renovation on its own copy of the estate: it must have seen these writes first.
    if (
      wroteEstate &&
      !(await settleAcrossContexts({
        bus,
        contexts: ['estates', 'renovations'],
        correlationId: workflow,
        timeoutMs: options.settleTimeoutMs,
      }))
    ) {
      throw new Error('the estate writes did not reach the renovations context in time; trying again');
    }

    const renovation_id = renovationIdOf(job_id);
    const items = plan.renovation.items.map((item, i, all) => {
      const roof = item.roof_kind ? roofs.find((r) => r.estate_roof_type === item.roof_kind) : null;
      const joined = all.findIndex((x) => x.step === item.step) < i ? item.renovation_component_type : undefined;
      return {
        item_id: itemIdOf(job_id, item.step, joined),
        renovation_component_type: item.renovation_component_type,
        placement: { scope: roof ? 'ROOF' : 'GENERAL', roof_id: roof?.id ?? null, floor_id: null, room_id: null, staircase_id: null },
        count: 1,
        quantity: item.quantity,
        step: item.step,
      };
    });
    // The quality label (estates) and the renovation (renovations) are independent: made side by side.
    // The label describes how well the home is known, which a refused renovation does not change.
    const recordingQuality = call(EstatesSubjects.recordTrajectoryQuality, {
      key: estateKey(job_id, 'quality'),
      body: { estate_id, calculation_job_id: job_id, ...plan.quality },
    }).catch((err: unknown) => {
      if (err instanceof DomainError && err.status < 500) log.warn({ err, job_id }, 'quality label not recorded on the estate');
      else throw err;
    });
    try {
      await call(RenovationsSubjects.createFromTrajectory, {
        key: estateKey(job_id, 'renovation'),
        body: { renovation_id, estate_id, name: plan.renovation.name, calculation_job_id: job_id, items, year: plan.renovation.year },
      });
    } catch (err) {
      await recordingQuality.catch(() => undefined);
      // Renovations answers 404 for an estate its copy has not seen yet (after an outage, say): estates,
      // which owns the estate, says whether it is gone. If estates still shows it, this is a lag: try again.
      if (err instanceof DomainError && err.status === 404 && (await estateStillThere(call, estate_id))) {
        throw new Error('renovations has not seen the estate yet; trying again');
      }
      // What renovations refuses on the data (or the estate gone, the actor no longer a writer) fails the job.
      if (err instanceof DomainError && err.status < 500) {
        await options.fail(
          job_id,
          attempt,
          {
            code: 'RENOVATION_REFUSED',
            message: `the renovation could not be created: ${err.messages.join('; ') || `status ${err.status}`}`,
          },
          correlation_id,
        );
        return;
      }
      throw err;
    }
    await recordingQuality;
    await options.finish(job_id, attempt, { renovation_id, ...plan.result }, correlation_id);
  }

  /** Effects under way in this process: the process manager waits for one instead of doing it again. */
  const running = new Map<string, Promise<void>>();
  function run(job_id: string, attempt: number, plan: JobPlan, correlation_id: string, state?: JobState): Promise<void> {
    const under = running.get(job_id);
    if (under) return under;
    const applying = apply(job_id, attempt, plan, correlation_id, state).finally(() => running.delete(job_id));
    running.set(job_id, applying);
    return applying;
  }

  const process = runProcessManager({
    name: 'calculations-job-effects',
    eventStore: options.eventStore,
    readStore: options.readStore,
    eventTypes: ['CalculationJobPlanned'],
    onError: (err, event) => log.warn({ err, event_id: event?.event_id }, 'job effects failed; retrying'),
    async handle(event: RecordedEvent) {
      const { job_id, attempt, plan } = CalculationJobEvents.CalculationJobPlanned.parse(event.data);
      await running.get(job_id)?.catch(() => undefined);
      // Keyed writes: done already, or done again to the same effect; `apply` skips a job no longer RUNNING.
      await run(job_id, attempt, plan as unknown as JobPlan, event.metadata.correlation_id);
    },
  });
  return { run, process };
}
