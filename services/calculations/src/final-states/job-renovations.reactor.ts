import type { Bus, Closeable } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import { reactionMetadata } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { RenovationEvents } from '@renopath/contracts';
import { jobStream } from '../job/job.decider.ts';
import { J, type JobDoc } from '../job-views/job-views.projection.ts';
import type { CalculationsKit } from '../kit/calculations-kit.ts';
import type { OnFinal } from './final-states.process.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const JOB_RENOVATIONS_CONSUMER = 'calculations-job-renovations';

/** The job a renovations event answers for: the one that made the renovation, or whose renovation was declined. */
function jobOf(type: string, data: unknown): string | null {
  if (type === 'RenovationTrajectoryDeclined') {
    const parsed = RenovationEvents.RenovationTrajectoryDeclined.safeParse(data);
    return parsed.success ? parsed.data.calculation_job_id : null;
  }
  const parsed = RenovationEvents.RenovationCreated.safeParse(data);
  return parsed.success ? (parsed.data.trajectory?.calculation_job_id ?? null) : null;
}

/**
 * A FINISHED trajectory job reaches `onFinal` (its webhook) once renovations holds the job's renovation
 * (`RenovationCreated` of the job), or said it will not make it (`RenovationTrajectoryDeclined`, its
 * estate deleted meanwhile): a client that reads the renovation on the webhook finds it. The job as
 * its read model shows it, once that has the job's last event; at least once (the dispatcher dedupes).
 */
export function startJobRenovationsReactor(
  kit: CalculationsKit,
  options: { bus: Bus; settlement?: Settlement; onFinal: OnFinal },
): Promise<Closeable> {
  const { store, reads, projection, config } = kit;
  return consumeEvents(
    options.bus,
    JOB_RENOVATIONS_CONSUMER,
    options.settlement,
    async (envelope) => {
      const job_id = jobOf(envelope.type, envelope.data);
      if (!job_id) return;
      const events = await store.readStream(jobStream(job_id));
      const last = events.at(-1);
      if (!last || !events.some((e) => e.type === 'CalculationJobFinished')) return;
      await projection.waitFor(last.position, config.settleTimeoutMs);
      const doc = await reads.get<JobDoc>(J.jobs, job_id);
      if (doc?.job.calculation_job_status === 'FINISHED') await options.onFinal(doc.job, doc, reactionMetadata(envelope));
    },
    // Each renovation's word is about its own job: the jobs' webhooks are scheduled side by side.
    (envelope) => envelope.stream,
  );
}
