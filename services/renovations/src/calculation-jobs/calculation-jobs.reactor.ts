import { DomainError, type Closeable, type EventEnvelope, type ReadStore } from '@renopath/platform';
import { traceFields } from '@renopath/platform/observability/tracing.ts';
import { consumeParsedEvents, type ParsedEvent, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import {
  calculationJobKey,
  derivedId,
  FINISHED_JOBS,
  renovationIdOfJob,
  roofIdOfJob,
  type RenovationCommand,
  type RenovationEstateSnapshot,
  type TrajectoryItem,
  type TrajectoryJobConsequences,
} from '@renopath/contracts';
import { M, type EstateJobDoc, type EstateMirrorDoc } from '../estate-mirror/estate-mirror.reactor.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const CALCULATION_JOBS_CONSUMER = 'renovations-calculation-jobs';

/** A step's own item keeps the key `step-N`; a measure joined to the step (ventilation) adds its type to it. */
const itemIdOf = (job_id: string, step: number, joined?: string) =>
  derivedId(calculationJobKey(job_id, joined ? `step-${step}-${joined}` : `step-${step}`), 'renovation-item');

/**
 * The roof a plan's step of `kind` is placed on: the one estates added for the job under `roofIdOfJob`,
 * else the estate's own roof of that kind (estates adds none when it has one), the lowest id when it has
 * several; null when the estate has none any more (removed since), and the item is then a general one.
 */
function roofOf(estate: RenovationEstateSnapshot, job_id: string, kind: string): string | null {
  const own = roofIdOfJob(job_id, kind);
  if (estate.roofs.some((r) => r.id === own)) return own;
  const ofKind = estate.roofs.filter((r) => r.estate_roof_type === kind).map((r) => r.id);
  return ofKind.sort()[0] ?? null;
}

/** The plan's steps as renovation items: ids from the job and the step, placed on the estate's roof of the step's kind. */
export function trajectoryItemsOf(job_id: string, c: TrajectoryJobConsequences, estate: RenovationEstateSnapshot): TrajectoryItem[] {
  return c.renovation.items.map((item, i, all) => {
    const roof_id = item.roof_kind ? roofOf(estate, job_id, item.roof_kind) : null;
    const joined = all.findIndex((x) => x.step === item.step) < i ? item.renovation_component_type : undefined;
    return {
      item_id: itemIdOf(job_id, item.step, joined),
      renovation_component_type: item.renovation_component_type,
      placement: { scope: roof_id ? 'ROOF' : 'GENERAL', roof_id, floor_id: null, room_id: null, staircase_id: null },
      count: 1,
      quantity: item.quantity,
      step: item.step,
    };
  });
}

/**
 * Renovations follows calculations' `CalculationJobFinished` (docs/architecture.md "A calculation job"):
 * a trajectory job's renovation (`renovationIdOfJob`) with its items, made on this context's copy of
 * the estate once that copy holds estates' consequences of the same job (the roofs the steps sit on),
 * which it waits for. A deleted estate, or a plan renovations refuses, gets
 * `RenovationTrajectoryDeclined` instead, so nothing waits on the job for ever. Both are said once per
 * job: the renovation's stream decides nothing the second time.
 */
export function startCalculationJobsReactor(
  options: ReadStoreReactorOptions & { run(renovation_id: string, command: RenovationCommand, cause: EventEnvelope): Promise<void> },
): Promise<Closeable> {
  const applyJob = async ({ data }: ParsedEvent<typeof FINISHED_JOBS.events>, envelope: EventEnvelope) => {
    if (data.consequences) await makeRenovation(options, envelope, data.job_id, data.consequences);
  };
  // A job waiting for its copy of the estate holds up only the jobs of the same estate.
  return consumeParsedEvents(options, CALCULATION_JOBS_CONSUMER, FINISHED_JOBS.events, applyJob, FINISHED_JOBS.orderedBy);
}

/** How long a job waits here for this context's copy of its estate before its event is redelivered (estates down, say). */
const COPY_WAIT_MS = 10_000;
const COPY_POLL_MS = 10;

/**
 * This context's copy of the estate once it holds estates' writes for the job (its quality label,
 * the last event of that append), or `deleted`. The copy follows estates on its own consumer, a few
 * milliseconds behind: waited for here, rather than by a redelivery whose back-off would hold up the
 * jobs behind this one. Past the bound the event is redelivered.
 */
async function copyHoldingJob(readStore: ReadStore, estate_id: string, job_id: string): Promise<RenovationEstateSnapshot | 'deleted'> {
  const deadline = Date.now() + COPY_WAIT_MS;
  for (;;) {
    const estate = (await readStore.get<EstateMirrorDoc>(M.estates, estate_id))?.snapshot;
    if (estate?.deleted) return 'deleted';
    if (estate && (await readStore.get<EstateJobDoc>(M.estateJobs, `${estate_id}:${job_id}`))) return estate;
    if (Date.now() > deadline) throw new Error(`renovations' copy of estate ${estate_id} does not hold job ${job_id} yet; later`);
    await new Promise((resolve) => setTimeout(resolve, COPY_POLL_MS));
  }
}

/** The job's renovation on this context's copy of its estate, or its refusal (see `startCalculationJobsReactor`). */
async function makeRenovation(
  options: Parameters<typeof startCalculationJobsReactor>[0],
  envelope: EventEnvelope,
  job_id: string,
  c: TrajectoryJobConsequences,
): Promise<void> {
  const { readStore, log } = options;
  const renovation_id = renovationIdOfJob(job_id);
  const decline = (reason: string) =>
    options.run(
      renovation_id,
      { type: 'DeclineTrajectory', renovation_id, estate_id: c.estate_id, calculation_job_id: job_id, reason },
      envelope,
    );
  const estate = await copyHoldingJob(readStore, c.estate_id, job_id);
  if (estate === 'deleted') return decline('the estate was deleted');
  const command: RenovationCommand = {
    type: 'CreateRenovationFromTrajectory',
    renovation_id,
    renovation_name: c.renovation.name,
    calculation_job_id: job_id,
    items: trajectoryItemsOf(job_id, c, estate),
    income_category: null,
    estate,
    year: c.renovation.year,
  };
  try {
    await options.run(renovation_id, command, envelope);
  } catch (err) {
    // What renovations refuses on the data is an answer about this job; anything else is tried again.
    if (!(err instanceof DomainError) || err.status >= 500) throw err;
    log.warn({ err, job_id, ...traceFields(envelope.metadata) }, "the job's renovation was refused");
    await decline(`the renovation could not be created: ${err.messages.join('; ') || `status ${err.status}`}`);
  }
}
