import type { Closeable, EventEnvelope } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { EstateEvents, type EstateEvent } from '@renopath/contracts';
import { applyEstateEvent, type Snapshot } from './estate-mirror.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const ESTATES_CONSUMER = 'renovations-estates';

export const M = {
  /** The estate snapshots this context prices with (`EstateMirrorDoc`). */
  estates: 'renovations_estates',
  /** Who is a member of which estate: the estates a CLIENT sees renovations of. */
  estateMembers: 'renovations_estate_members',
  /**
   * The calculation jobs whose consequences estates applied to an estate (its `EstateTrajectoryQualityRecorded`,
   * the last event of that append), by `<estate_id>:<job_id>`: renovations makes a job's renovation once
   * its copy of the estate holds them.
   */
  estateJobs: 'renovations_estate_jobs',
} as const;

export interface EstateJobDoc {
  estate_id: string;
  calculation_job_id: string;
}

export interface EstateMirrorDoc {
  id: string;
  /** Estate stream revision of the last applied event: a redelivered event is skipped. */
  revision: number;
  organization_id: string;
  snapshot: Snapshot;
}

export interface EstateMemberDoc {
  estate_id: string;
  user_id: string;
  organization_id: string;
}

/**
 * Keeps this context's copy of the estates (parsed with the estates context's event schemas), then
 * hands each event to the cascade (`estate-cascade/`). The copy is written once per event; the cascade
 * runs again on a redelivery, which is safe because its commands change nothing the second time.
 */
export function startEstateMirrorReactor(
  options: ReadStoreReactorOptions & { cascade(envelope: EventEnvelope, event: EstateEvent, snapshot: Snapshot): Promise<void> },
): Promise<Closeable> {
  const { readStore, cascade } = options;
  return consumeParsedEvents(options, ESTATES_CONSUMER, EstateEvents, async (event, envelope) => {
    const snapshot = await readStore.transaction(async (tx) => {
      const estate_id = event.data.estate_id;
      const doc = await tx.get<EstateMirrorDoc>(M.estates, estate_id);
      if (doc && doc.revision >= envelope.revision) return doc.snapshot;
      const next = applyEstateEvent(doc?.snapshot ?? null, event);
      if (!next) return null;
      await tx.put<EstateMirrorDoc>(M.estates, estate_id, {
        id: estate_id,
        revision: envelope.revision,
        organization_id: next.organization_id,
        snapshot: next,
      });
      if ((event.type === 'EstateMemberAdded' && event.data.status !== 'PENDING') || event.type === 'EstateMemberActivated') {
        const { user_id, organization_id } = event.data;
        await tx.put<EstateMemberDoc>(M.estateMembers, `${estate_id}:${user_id}`, { estate_id, user_id, organization_id });
      } else if (event.type === 'EstateMemberRemoved') {
        await tx.delete(M.estateMembers, `${estate_id}:${event.data.user_id}`);
      } else if (event.type === 'EstateTrajectoryQualityRecorded') {
        const { calculation_job_id } = event.data;
        await tx.put<EstateJobDoc>(M.estateJobs, `${estate_id}:${calculation_job_id}`, { estate_id, calculation_job_id });
      }
      return next;
    });
    if (snapshot) await cascade(envelope, event, snapshot);
  });
}
