import type { Estate, EstateFile, EstateListForm, EstateListItem } from '@renopath/contracts';
import type { Assessment } from '../quality/quality.ts';
import { qualityLabelOf, type EstateListDoc } from './estate-views.projection.ts';
import type { EstateView, StoredFile } from './estate-view.ts';

/**
 * Replies in the contract's shapes (every documented field, unknown = null). A file leaves with
 * `url: null` and its `blob_key`: the gateway turns the key into a signed download link valid for an
 * hour on every read, so links are always fresh and the signing secret stays at the edge.
 */
export type FileReply = EstateFile & { blob_key?: string };
type WithFileReplies<T> = Omit<T, 'files' | 'media' | 'commercial_context'> & {
  commercial_context: { price: number | null; commercial_media_files: FileReply[] };
};
export type EstateListReply = WithFileReplies<EstateListForm>;
export type EstateReply = WithFileReplies<Estate> & { files: FileReply[]; media: FileReply[] };

export const referralLink = (publicUrl: string, token: string) => `${publicUrl}/r/${token}`;

/** `linkable` false: the file is gone (an `as_of` answer), so it gets no download link. */
export function renderFile(file: StoredFile, linkable = true): FileReply {
  const { id, name, mimetype, estate_id, size, blob_key, created_at } = file;
  return { id, name, url: null, mimetype, estate_id, size, ...(linkable ? { blob_key } : {}), created_at };
}

interface ListSource {
  id: string;
  organization_id: string;
  estate_provider_type: EstateListForm['estate_provider_type'];
  referral_token: string;
  fields: EstateView['fields'];
  media: StoredFile[];
  created_at: string;
  updated_at: string;
}

/**
 * The fields the list form and the detail share, in the contract's key order; each caller adds its
 * own after them, then the timestamps, with one `Object.assign` (no spread copies: the detail runs on
 * every GET /estates/{id}).
 */
function sharedFields(
  source: ListSource,
  quality_label: EstateListForm['quality_label'],
  publicUrl: string,
  linkable: (file_id: string) => boolean,
) {
  const f = source.fields;
  return {
    id: source.id,
    external_id: f.external_id,
    managing_user_id: f.managing_user_id,
    year_built: f.year_built,
    year_renovated: f.year_renovated,
    estate_type: f.estate_type,
    estate_format: f.estate_format,
    estate_status: f.estate_status,
    address: f.address,
    commercial_context: { ...f.commercial_context, commercial_media_files: renderFiles(source.media, linkable) },
    organization_id: source.organization_id,
    estate_provider_type: source.estate_provider_type,
    name: f.name,
    description: f.description,
    number_of_floors: f.number_of_floors,
    quality_label,
    referral_link: referralLink(publicUrl, source.referral_token),
  };
}

/** The interface's list form: the estate without energy_context, dimensions, habitable_space_m2, ground_surface_m2 and files. */
function listForm(
  source: ListSource,
  quality_label: EstateListForm['quality_label'],
  publicUrl: string,
  linkable: (file_id: string) => boolean,
): EstateListReply {
  return Object.assign(sharedFields(source, quality_label, publicUrl, linkable), {
    created_at: source.created_at,
    updated_at: source.updated_at,
  });
}

export function renderListForm(doc: EstateListDoc, publicUrl: string): EstateListReply {
  return listForm(doc, doc.quality_label, publicUrl, () => true);
}

/** The list form of a detailed view (the answer to a DELETE, whose files are gone: no links). */
export function renderViewListForm(view: EstateView, assessment: Assessment, publicUrl: string): EstateListReply {
  return listForm(view, qualityLabelOf(view, assessment), publicUrl, () => false);
}

export function renderListItem(doc: EstateListDoc, publicUrl: string) {
  const estate = renderListForm(doc, publicUrl);
  return {
    estate,
    estate_provider_type: estate.estate_provider_type,
    external_id: estate.external_id,
    quality_label: estate.quality_label,
    referral_link: estate.referral_link,
  } satisfies Omit<EstateListItem, 'estate'> & { estate: EstateListReply };
}

export function renderEstate(
  view: EstateView,
  assessment: Assessment,
  publicUrl: string,
  linkable: (file_id: string) => boolean = () => true,
): EstateReply {
  const f = view.fields;
  return Object.assign(sharedFields(view, qualityLabelOf(view, assessment), publicUrl, linkable), {
    habitable_space_m2: f.habitable_space_m2,
    ground_surface_m2: f.ground_surface_m2,
    energy_context: f.energy_context,
    dimensions: f.dimensions,
    files: renderFiles(view.files, linkable),
    media: renderFiles(view.media, linkable),
    roofs: view.roofs,
    floors: view.floors,
    members: view.members,
    created_at: view.created_at,
    updated_at: view.updated_at,
  });
}

function renderFiles(files: StoredFile[], linkable: (file_id: string) => boolean): FileReply[] {
  return files.length === 0 ? [] : files.map((file) => renderFile(file, linkable(file.id)));
}
