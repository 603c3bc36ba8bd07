import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import { CalculationJobEvents, type CalculationJob, type CalculationJobEvent, type CalculationJobEventType } from '@renopath/contracts';
import { JOB_STREAM_PREFIX } from '../job/job.decider.ts';

/**
 * The jobs read model: one document per job with what the job endpoints answer and the columns the
 * list filters on and the work queue sweeps by (status, lease, readiness, expiry).
 */
export const JOB_VIEWS_PROJECTION = 'calculation-job-views';
export const J = {
  jobs: 'calculation_jobs',
  /**
   * The jobs not yet final (NOT_STARTED or RUNNING): what the work queue sweeps. Kept apart so a
   * sweep reads the few live jobs, not every job ever made.
   */
  live: 'calculation_jobs_live',
} as const;

/** A live job as the work queue sees it. */
export interface LiveJobDoc {
  id: string;
  status: 'NOT_STARTED' | 'RUNNING';
  ready: boolean;
  lease_until: string | null;
  created_position: number;
}

export interface JobDoc {
  id: string;
  organization_id: string;
  user_id: string;
  client_id: string;
  revision: number;
  created_position: number;
  job: CalculationJob;
  ready: boolean;
  attempt: number;
  lease_until: string | null;
  webhook_url: string | null;
  parent_job_id: string | null;
}

type Applied = Pick<RecordedEvent, 'type' | 'data' | 'occurred_at' | 'revision' | 'position'>;

/** The document after one event (pure); events of another contract version are refused loudly, not guessed. */
export function applyJobEvent(doc: JobDoc | null, e: Applied): JobDoc | null {
  const schema = CalculationJobEvents[e.type as CalculationJobEventType];
  if (!schema) return doc;
  const event = { type: e.type, data: schema.parse(e.data) } as CalculationJobEvent;
  const revision = Number(e.revision);
  if (event.type === 'CalculationJobCreated') {
    const d = event.data;
    return {
      id: d.job_id,
      organization_id: d.actor.organization_id,
      user_id: d.actor.user_id,
      client_id: d.actor.client_id,
      revision,
      created_position: Number(e.position),
      // As the decider has it: a trajectory job runs on its estate (older jobs waited for it to be linked).
      ready: d.calculation_job_type !== 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION' || d.estate_id !== null,
      attempt: 0,
      lease_until: null,
      webhook_url: d.webhook_url,
      parent_job_id: d.parent_job_id,
      job: {
        id: d.job_id,
        created_at: e.occurred_at,
        updated_at: e.occurred_at,
        external_id: d.external_id,
        deactivated_at: null,
        calculation_job_type: d.calculation_job_type,
        calculation_job_status: 'NOT_STARTED',
        metadata: {},
        estate_id: d.estate_id,
        name: d.name,
        description: d.description,
        expires_at: d.expires_at,
        published_at: null,
      },
    };
  }
  if (!doc) return doc;
  const next: JobDoc = { ...doc, revision, job: { ...doc.job, updated_at: e.occurred_at } };
  switch (event.type) {
    case 'CalculationJobEstateLinked':
      return { ...next, ready: true, job: { ...next.job, estate_id: event.data.estate_id } };
    case 'CalculationJobStarted':
      return {
        ...next,
        attempt: event.data.attempt,
        lease_until: event.data.lease_until,
        job: { ...next.job, calculation_job_status: 'RUNNING' },
      };
    case 'CalculationJobLeaseRenewed':
      return { ...next, lease_until: event.data.lease_until };
    case 'CalculationJobFinished':
      return {
        ...next,
        lease_until: null,
        job: { ...next.job, calculation_job_status: 'FINISHED', metadata: event.data.metadata, published_at: e.occurred_at },
      };
    case 'CalculationJobFailed':
      return { ...next, lease_until: null, job: { ...next.job, calculation_job_status: 'FAILED', metadata: { error: event.data.error } } };
    case 'CalculationJobStopped':
      return { ...next, lease_until: null, job: { ...next.job, calculation_job_status: 'STOPPED' } };
    case 'CalculationJobDeactivated':
      return { ...next, job: { ...next.job, deactivated_at: e.occurred_at } };
    default:
      return next;
  }
}

export async function projectJobViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const id = event.stream.slice(JOB_STREAM_PREFIX.length);
  const current = await tx.get<JobDoc>(J.jobs, id);
  if (current && current.revision >= Number(event.revision)) return;
  const next = applyJobEvent(current, event);
  if (!next) return;
  await tx.put(J.jobs, id, next);
  const status = next.job.calculation_job_status;
  if ((status === 'NOT_STARTED' || status === 'RUNNING') && next.job.deactivated_at === null) {
    await tx.put<LiveJobDoc>(J.live, id, {
      id,
      status,
      ready: next.ready,
      lease_until: next.lease_until,
      created_position: next.created_position,
    });
  } else {
    await tx.delete(J.live, id);
  }
}
