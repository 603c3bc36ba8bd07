import type { Estate, EstateFile, EstateListForm, EstateListItem, ReferralSummary } from '@renopath/contracts';
import type { Assessment } from '../quality/quality.ts';
import { qualityLabelOf, type EstateListDoc } from './estate-views.projection.ts';
import type { EstateView, StoredFile } from './estate-view.ts';

/**
 * Replies in the contract's shapes (every documented field, unknown = null). A file leaves with
 * `url: null` and its `blob_key`: the gateway turns the key into a signed download link valid for an
 * hour on every read, so links are always fresh and the signing secret stays at the edge.
 */
export type FileReply = EstateFile & { blob_key?: string };
export type EstateReply = Omit<Estate, 'files' | 'media'> & { files: FileReply[]; media: FileReply[] };

export const referralLink = (publicUrl: string, token: string) => `${publicUrl}/r/${token}`;

/** `linkable` false: the file is gone (an `as_of` answer), so it gets no download link. */
export function renderFile(file: StoredFile, linkable = true): FileReply {
  const { blob_key, created_at, ...rest } = file;
  return { ...rest, url: null, ...(linkable ? { blob_key } : {}), created_at };
}

interface ListSource {
  id: string;
  organization_id: string;
  estate_provider_type: EstateListForm['estate_provider_type'];
  referral_token: string;
  fields: EstateView['fields'];
  created_at: string;
  updated_at: string;
}

function listForm(source: ListSource, quality_label: EstateListForm['quality_label'], publicUrl: string): EstateListForm {
  const { external_id, ...fields } = source.fields;
  return {
    id: source.id,
    organization_id: source.organization_id,
    external_id,
    estate_provider_type: source.estate_provider_type,
    ...fields,
    quality_label,
    referral_link: referralLink(publicUrl, source.referral_token),
    created_at: source.created_at,
    updated_at: source.updated_at,
  };
}

export function renderListForm(doc: EstateListDoc, publicUrl: string): EstateListForm {
  return listForm(doc, doc.quality_label, publicUrl);
}

export function renderListItem(doc: EstateListDoc, publicUrl: string): EstateListItem {
  const estate = renderListForm(doc, publicUrl);
  return {
    estate,
    estate_provider_type: estate.estate_provider_type,
    external_id: estate.external_id,
    quality_label: estate.quality_label,
    referral_link: estate.referral_link,
  };
}

export function renderEstate(
  view: EstateView,
  assessment: Assessment,
  publicUrl: string,
  linkable: (file_id: string) => boolean = () => true,
): EstateReply {
  const { created_at, updated_at, ...form } = listForm(view, qualityLabelOf(view, assessment), publicUrl);
  return {
    ...form,
    roofs: view.roofs,
    floors: view.floors,
    files: view.files.map((f) => renderFile(f, linkable(f.id))),
    media: view.media.map((f) => renderFile(f, linkable(f.id))),
    members: view.members,
    created_at,
    updated_at,
  };
}

/** Only what an agency's advert shows (type and place) and the model's estimate: no address, people or files. */
export function renderReferral(doc: EstateListDoc): ReferralSummary {
  const a = doc.assessment;
  return {
    estate_type: doc.fields.estate_type,
    city: doc.fields.city,
    zip_code: doc.fields.zip_code,
    country: doc.fields.country,
    region: a.region,
    epc_label: a.epc_label,
    energy_efficiency_type: a.energy_efficiency_type,
    confidence_score: a.confidence_score,
    quality_label: a.quality_label,
  };
}
