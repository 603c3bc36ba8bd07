import type { Closeable, EventEnvelope } from '@renopath/platform';
import { consumeParsedEvents, type ParsedEvent, type ReactorOptions } from '@renopath/platform/service/reactor.ts';
import {
  estateFromProperty,
  FINISHED_JOBS,
  knownRoofFields,
  roofIdOfJob,
  UpdateEstateBody,
  type EstateCommand,
  type TrajectoryJobConsequences,
} from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const CALCULATION_JOBS_CONSUMER = 'estates-calculation-jobs';

type Apply = Extract<EstateCommand, { type: 'ApplyCalculationJob' }>;

/**
 * What a finished job's plan asks of its estate, as one command: the fields the EPC document and the
 * providers filled (the estate's own rules decide what it takes), a roof of each kind the request
 * describes or the steps are placed on, under the id the job names for that kind (`roofIdOfJob`, which
 * renovations looks for too), and the quality label.
 */
export function applyCommandOf(job_id: string, c: TrajectoryJobConsequences): Apply {
  const described = c.estate_update ? estateFromProperty(c.estate_update) : null;
  const { external_id: _x, ...fields } = (described?.fields ?? {}) as Record<string, unknown>;
  const parsed = UpdateEstateBody.safeParse(fields);
  const roofs = new Map<string, Apply['roofs'][number]['fields']>();
  for (const roof of described?.roofs ?? []) roofs.set(roof.estate_roof_type, knownRoofFields(roof));
  for (const kind of c.roof_kinds) if (!roofs.has(kind)) roofs.set(kind, { estate_roof_type: kind } as Apply['roofs'][number]['fields']);
  return {
    type: 'ApplyCalculationJob',
    estate_id: c.estate_id,
    calculation_job_id: job_id,
    changes: parsed.success ? parsed.data : {},
    roofs: [...roofs].map(([kind, roof]) => ({ roof_id: roofIdOfJob(job_id, kind), fields: roof })),
    ...c.quality,
  };
}

/**
 * Estates follows calculations' `CalculationJobFinished` (docs/architecture.md "A calculation job"):
 * a trajectory job's consequences for its estate, in one append, once per job (the estate's quality
 * label records the job; a redelivery decides nothing). A deleted estate takes nothing and the event
 * is done with: nothing waits on it here.
 */
export function startCalculationJobsReactor(
  options: ReactorOptions & { apply(event: EventEnvelope, command: Apply): Promise<void> },
): Promise<Closeable> {
  const applyJob = async ({ data }: ParsedEvent<typeof FINISHED_JOBS.events>, envelope: EventEnvelope) => {
    if (data.consequences) await options.apply(envelope, applyCommandOf(data.job_id, data.consequences));
  };
  // One estate's jobs in the order they finished (the last one's label stays); other estates' alongside.
  return consumeParsedEvents(options, CALCULATION_JOBS_CONSUMER, FINISHED_JOBS.events, applyJob, FINISHED_JOBS.orderedBy);
}
