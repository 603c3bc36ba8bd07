import type { Closeable } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { traceFields } from '@renopath/platform/observability/tracing.ts';
import { CalculationJobEvents, EstateEvents, IdentityEvents, TrajectoryJobMetadata } from '@renopath/contracts';
import { changeOf, recordChangeIn } from '../change-log/change-log.reactor.ts';
import { applyEstateEvent } from './estate-copy.ts';
import type { ReferralAgency, ReferralEstate } from './referral-model.ts';

/** Durable consumer names: they must not change, or the bus would start new consumers from the beginning. */
export const ESTATES_CONSUMER = 'reporting-estates';
export const CALCULATIONS_CONSUMER = 'reporting-calculations';
export const IDENTITY_CONSUMER = 'reporting-identity';

export const R = {
  /** Referral token -> estate id. */
  tokens: 'reporting_referral_tokens',
  /** The estate copy (`EstateCopyDoc`). */
  estates: 'reporting_estates',
  /** A trajectory job's estate and organization (`JobDoc`). */
  jobs: 'reporting_jobs',
  /** An estate's latest finished trajectory (`TrajectoryDoc`). */
  trajectories: 'reporting_trajectories',
  /** Agencies (`AgencyDoc`). */
  agencies: 'reporting_agencies',
} as const;

export interface TokenDoc {
  token: string;
  estate_id: string;
}
export interface EstateCopyDoc {
  id: string;
  revision: number;
  estate: ReferralEstate;
}
export interface JobDoc {
  id: string;
  revision: number;
  estate_id: string | null;
  organization_id: string;
  trajectory: boolean;
}
export interface TrajectoryDoc {
  id: string;
  job_id: string;
  finished_at: string;
  plan: TrajectoryJobMetadata;
}
export interface AgencyDoc {
  id: string;
  revision: number;
  agency: ReferralAgency;
}

/** Estates events: the change log (is_outdated) and the referral page's copy of the estate and its token. */
export function startEstatesReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  return consumeParsedEvents(options, ESTATES_CONSUMER, EstateEvents, async (event, envelope) => {
    const change = changeOf(envelope, event.data);
    // The change and the copy in one commit: a reactor's transaction per event is most of what
    // reporting costs a job.
    await options.readStore.transaction(async (tx) => {
      if (change) await recordChangeIn(tx, change.key, change.at);
      const estate_id = event.data.estate_id;
      const doc = await tx.get<EstateCopyDoc>(R.estates, estate_id);
      if (doc && doc.revision >= envelope.revision) return;
      const next = applyEstateEvent(doc?.estate ?? null, event);
      if (!next) return;
      await tx.put<EstateCopyDoc>(R.estates, estate_id, { id: estate_id, revision: envelope.revision, estate: next });
      if (event.type === 'EstateCreated')
        await tx.put<TokenDoc>(R.tokens, event.data.referral_token, { token: event.data.referral_token, estate_id });
    });
  });
}

/**
 * The job events the page's copy follows, and the only ones its consumer is subscribed to
 * (EVENT_CONSUMERS): the others (started, failed, stopped, a delivery's) change nothing on it. The
 * revision guard stays right without them: it only ever keeps an older redelivered event from undoing
 * a later one of these.
 */
const { CalculationJobCreated, CalculationJobEstateLinked, CalculationJobFinished } = CalculationJobEvents;
const CHANGES_A_JOB_COPY = { CalculationJobCreated, CalculationJobEstateLinked, CalculationJobFinished };

/** Calculations events: which estate a trajectory job is for, and the estate's latest finished trajectory. */
export function startCalculationsReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  const { readStore, log } = options;
  return consumeParsedEvents(options, CALCULATIONS_CONSUMER, CHANGES_A_JOB_COPY, async (event, envelope) => {
    if (!envelope.stream.startsWith('calculation-job-')) return;
    await readStore.transaction(async (tx) => {
      const job = await tx.get<JobDoc>(R.jobs, event.data.job_id);
      if (job && job.revision >= envelope.revision) return;
      if (event.type === 'CalculationJobCreated') {
        const created = event.data;
        await tx.put<JobDoc>(R.jobs, created.job_id, {
          id: created.job_id,
          revision: envelope.revision,
          estate_id: created.estate_id,
          organization_id: created.actor.organization_id,
          trajectory: created.calculation_job_type === 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION',
        });
        return;
      }
      if (!job) return;
      const next: JobDoc = { ...job, revision: envelope.revision };
      if (event.type === 'CalculationJobEstateLinked') next.estate_id = event.data.estate_id;
      await tx.put<JobDoc>(R.jobs, job.id, next);
      if (event.type !== 'CalculationJobFinished' || !job.trajectory || !next.estate_id) return;
      const plan = TrajectoryJobMetadata.safeParse(event.data.metadata);
      if (!plan.success) {
        log.warn(
          { event_id: envelope.event_id, ...traceFields(envelope.metadata) },
          'a finished trajectory job without a trajectory; not shown on the referral page',
        );
        return;
      }
      const latest = await tx.get<TrajectoryDoc>(R.trajectories, next.estate_id);
      if (latest && latest.finished_at > envelope.occurred_at) return;
      await tx.put<TrajectoryDoc>(R.trajectories, next.estate_id, {
        id: next.estate_id,
        job_id: job.id,
        finished_at: envelope.occurred_at,
        plan: plan.data,
      });
    });
  });
}

/** Identity events: the agency's name, phone and email for the page's call to action. */
export function startIdentityReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  const { OrganizationCreated, OrganizationUpdated } = IdentityEvents;
  return consumeParsedEvents(options, IDENTITY_CONSUMER, { OrganizationCreated, OrganizationUpdated }, async ({ data }, envelope) => {
    await options.readStore.transaction(async (tx) => {
      const id = data.organization_id;
      const doc = await tx.get<AgencyDoc>(R.agencies, id);
      if (doc && doc.revision >= envelope.revision) return;
      const p = 'changes' in data ? data.changes : data;
      const before = doc?.agency ?? { name: '', phone: null, email: null };
      const agency: ReferralAgency = {
        name: p.organization_name ?? before.name,
        phone: p.phone_number !== undefined ? p.phone_number : before.phone,
        email: p.email_address !== undefined ? p.email_address : before.email,
      };
      await tx.put<AgencyDoc>(R.agencies, id, { id, revision: envelope.revision, agency });
    });
  });
}
