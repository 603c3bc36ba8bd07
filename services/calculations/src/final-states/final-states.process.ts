import type { EventMetadata } from '@renopath/platform';
import { reactionMetadata } from '@renopath/platform/service/handler-kit.ts';
import { runProcessManager } from '@renopath/platform/service/process-manager.ts';
import { jobAttempts, jobDuration } from '@renopath/platform/observability/metrics.ts';
import type { CalculationJob } from '@renopath/contracts';
import { JOB_STREAM_PREFIX } from '../job/job.decider.ts';
import { J, type JobDoc } from '../job-views/job-views.projection.ts';
import type { CalculationsKit } from '../kit/calculations-kit.ts';

/** What a job's final state is handed to (the webhook dispatcher): the job, its read model and the event that tells it (`reactionMetadata`). */
export type OnFinal = (job: CalculationJob, doc: JobDoc, cause: EventMetadata) => Promise<void>;

/**
 * Final states reach `onFinal` (the webhook dispatcher) from the log, at least once (it dedupes per
 * job and type), with the job as its read model shows it; and the job's duration and attempts are
 * observed. A trajectory job FINISHED with a plan for other contexts reaches it when renovations holds
 * the job's renovation instead (job-renovations.reactor.ts).
 */
export function startFinalStates(kit: CalculationsKit, onFinal: OnFinal) {
  const { store, reads, log, projection, config } = kit;
  return runProcessManager({
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
      // Whether the plan has consequences is all this needs of the event: not a parse of the whole plan (tens of kilobytes).
      if (event.type === 'CalculationJobFinished' && hasConsequences(event.data)) return;
      await onFinal(doc.job, doc, reactionMetadata(event));
    },
  });
}

/** A FINISHED job's event carries consequences for other contexts (its contract's optional `consequences`, checked where it was appended). */
const hasConsequences = (data: Record<string, unknown>) => data['consequences'] !== undefined && data['consequences'] !== null;
