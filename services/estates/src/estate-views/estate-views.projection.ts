import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import type { EstateFieldValues, EstateProviderType, MembershipStatus, QualityLabel } from '@renopath/contracts';
import { assessEstate, UNASSESSED, type Assessment } from '../quality/quality.ts';
import { applyEstateEvent, type EstateView, type StoredFile } from './estate-view.ts';

/**
 * The estates read models, fed by one projection so they move together (one checkpoint, one
 * transaction per event):
 * - `detail`: the detailed form (with parts, files, media, members) and the model's assessment;
 * - `list`: the list form and the extra columns of `/v1/estate/list`;
 * - `memberships`: who is a member of which estate (the list of a client, the organization reactor);
 * - `referrals`: referral token -> estate, for the public page.
 */
export const ESTATE_VIEWS_PROJECTION = 'estate-views';
export const C = {
  detail: 'estates_detail',
  list: 'estates_list',
  memberships: 'estates_memberships',
} as const;
export const ESTATE_STREAM_PREFIX = 'estate-';

/** `view` is null once the estate is deleted: the tombstone keeps replays from resurrecting it. */
export interface EstateDetailDoc {
  id: string;
  /** Stream revision of the last applied event: a redelivered event is skipped. */
  revision: number;
  view: EstateView | null;
  assessment: Assessment;
}

export interface EstateListDoc {
  id: string;
  organization_id: string;
  estate_provider_type: EstateProviderType;
  external_id: string | null;
  referral_token: string;
  fields: EstateFieldValues;
  /** The list form's `commercial_context.commercial_media_files`. */
  media: StoredFile[];
  quality_label: QualityLabel;
  assessment: Assessment;
  created_at: string;
  updated_at: string;
}

export interface MembershipDoc {
  estate_id: string;
  user_id: string;
  organization_id: string;
  /** Absent in documents of earlier versions, which were all active. */
  status?: MembershipStatus;
}

/** Events that change what the model sees; others keep the stored assessment. */
const MODEL_INPUTS = new Set(['EstateCreated', 'EstateUpdated', 'RoofAdded', 'RoofUpdated', 'RoofRemoved']);

export const membershipId = (estate_id: string, user_id: string) => `${estate_id}:${user_id}`;

/** The quality label an estate shows: its latest trajectory's, else the model's on its own data (docs/http-contract.md "Estates and their parts"). */
export const qualityLabelOf = (view: EstateView, assessment: Assessment): QualityLabel =>
  view.trajectory?.quality_label ?? assessment.quality_label;

/** The assessment that goes with a view, reusing the previous one when no model input changed. */
export function nextAssessment(previous: Assessment | null, eventType: string, view: EstateView): Assessment {
  if (previous && !MODEL_INPUTS.has(eventType)) return previous;
  return assessEstate(view);
}

export async function projectEstateViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  if (!event.stream.startsWith(ESTATE_STREAM_PREFIX)) return;
  const estate_id = event.stream.slice(ESTATE_STREAM_PREFIX.length);
  const revision = Number(event.revision);
  const before = await tx.get<EstateDetailDoc>(C.detail, estate_id);
  if (before && before.revision >= revision) return;

  const view = applyEstateEvent(before?.view ?? null, event);
  if (!view) {
    await tx.put<EstateDetailDoc>(C.detail, estate_id, { id: estate_id, revision, view: null, assessment: UNASSESSED });
    await tx.delete(C.list, estate_id);
    if (before?.view) {
      for (const m of before.view.members) await tx.delete(C.memberships, membershipId(estate_id, m.user_id));
    }
    return;
  }

  const assessment = nextAssessment(before?.view ? before.assessment : null, event.type, view);
  await tx.put<EstateDetailDoc>(C.detail, estate_id, { id: estate_id, revision, view, assessment });
  await tx.put<EstateListDoc>(C.list, estate_id, {
    id: view.id,
    organization_id: view.organization_id,
    estate_provider_type: view.estate_provider_type,
    external_id: view.fields.external_id,
    referral_token: view.referral_token,
    fields: view.fields,
    media: view.media,
    quality_label: qualityLabelOf(view, assessment),
    assessment,
    created_at: view.created_at,
    updated_at: view.updated_at,
  });

  switch (event.type) {
    case 'EstateMemberAdded':
    case 'EstateMemberActivated': {
      const user_id = String(event.data['user_id']);
      const status = view.members.find((m) => m.user_id === user_id)?.status ?? 'ACTIVE';
      await tx.put<MembershipDoc>(C.memberships, membershipId(estate_id, user_id), {
        estate_id,
        user_id,
        organization_id: view.organization_id,
        status,
      });
      return;
    }
    case 'EstateMemberRemoved':
      await tx.delete(C.memberships, membershipId(estate_id, String(event.data['user_id'])));
      return;
  }
}
