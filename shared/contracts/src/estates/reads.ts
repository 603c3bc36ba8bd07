import { z } from 'zod';
import { EstateProviderType, QualityLabel } from '../enums.ts';
import { MembershipStatus, personRecord, stamps, Timestamp, Uuid } from '../identity.ts';
import { emailAddress } from '../text.ts';
import { text } from './schema.ts';
import { EstateAddress, EstateCommercialFields, EstateDimensions, EstateEnergyContext, EstateOwnFieldRules } from './estate-fields.ts';
import {
  FloorDimensionRules,
  FloorFieldRules,
  RoofDimensionRules,
  RoofFieldRules,
  RoomDimensionRules,
  RoomFieldRules,
  StaircaseDimensionRules,
  StaircaseFieldRules,
} from './parts.ts';

// Files, media and members; the queries and the replies (read models).

export const FileKind = z.enum(['FILE', 'MEDIA']);
export type FileKind = z.infer<typeof FileKind>;

/** Media types allowed per kind, decided from the bytes (docs/http-contract.md "Estates and their parts"). */
export const FILE_MEDIA_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
] as const;
export const MEDIA_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'video/mp4'] as const;

/**
 * What the gateway sends after storing an upload in the blob store: the bytes never cross the bus.
 * `blob_key` is the gateway's fresh key under `uploads/`.
 */
export const UploadedFile = z.strictObject({
  blob_key: z.string().regex(/^uploads\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'must be an upload key'),
  name: text(255),
  mimetype: z.string().min(1).max(255),
  size: z.number().int().min(1),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const AddEstateMemberBody = z.strictObject({
  email_address: emailAddress(),
  first_name: text(200),
  last_name: text(200),
});
export type AddEstateMemberBody = z.infer<typeof AddEstateMemberBody>;

// ---- queries ----

export const GetEstateQuery = z.strictObject({
  /** Extension: replay the estate's history up to this moment (inclusive). */
  as_of: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 timestamp' }).optional(),
});
export type GetEstateQuery = z.infer<typeof GetEstateQuery>;

export const EstateListQuery = z.strictObject({
  external_id: text(255).optional(),
  estate_provider_type: EstateProviderType.optional(),
});
export type EstateListQuery = z.infer<typeof EstateListQuery>;

// ---- replies (read models) ----

export const Roof = z.object({ id: Uuid, dimensions: z.object(RoofDimensionRules), ...RoofFieldRules, estate_id: Uuid, ...stamps });
export const Room = z.object({
  id: Uuid,
  ...RoomFieldRules,
  estate_id: Uuid,
  floor_id: Uuid,
  dimensions: z.object(RoomDimensionRules),
  ...stamps,
});
export const Staircase = z.object({
  id: Uuid,
  dimensions: z.object(StaircaseDimensionRules),
  ...StaircaseFieldRules,
  estate_id: Uuid,
  floor_id: Uuid,
  ...stamps,
});
export const Floor = z.object({
  id: Uuid,
  dimensions: z.object(FloorDimensionRules),
  ...FloorFieldRules,
  estate_id: Uuid,
  rooms: z.array(Room),
  staircases: z.array(Staircase),
  ...stamps,
});
export type Roof = z.infer<typeof Roof>;
export type Room = z.infer<typeof Room>;
export type Staircase = z.infer<typeof Staircase>;
export type Floor = z.infer<typeof Floor>;

/** A file or a medium (the interface: id, name, url, mimetype). `url` is a signed download link valid for one hour, made fresh on every read. */
export const EstateFile = z.object({
  id: Uuid,
  name: z.string(),
  url: z.string().nullable(),
  mimetype: z.string(),
  // extensions
  estate_id: Uuid,
  size: z.number().int(),
  created_at: Timestamp,
});
export type EstateFile = z.infer<typeof EstateFile>;

/** The interface's estate member: `id` is the member's user id (DELETE .../members/{member_id} takes it). */
export const EstateMember = z.object({
  id: Uuid,
  ...personRecord(),
  /** Estate members are CLIENT (docs/http-contract.md "Estates and their parts"). */
  member_type: z.literal('CLIENT'),
  // extensions
  user_id: Uuid,
  estate_id: Uuid,
  /** PENDING until the invitee accepts the emailed invitation (names and address as the inviter gave them); grants nothing before. */
  status: MembershipStatus,
  created_at: Timestamp,
});
export type EstateMember = z.infer<typeof EstateMember>;

/** `commercial_context` in reads: the price and the estate's media. */
export const EstateCommercialContext = EstateCommercialFields.extend({ commercial_media_files: z.array(EstateFile) });

/** The list form (the interface): without energy_context, dimensions, habitable_space_m2, ground_surface_m2, files, and (extension) parts, media and members. */
export const EstateListForm = z.object({
  id: Uuid,
  external_id: EstateOwnFieldRules.external_id,
  managing_user_id: EstateOwnFieldRules.managing_user_id,
  year_built: EstateOwnFieldRules.year_built,
  year_renovated: EstateOwnFieldRules.year_renovated,
  estate_type: EstateOwnFieldRules.estate_type,
  estate_format: EstateOwnFieldRules.estate_format,
  estate_status: EstateOwnFieldRules.estate_status,
  address: EstateAddress,
  commercial_context: EstateCommercialContext,
  // extensions
  organization_id: Uuid,
  estate_provider_type: EstateProviderType,
  name: EstateOwnFieldRules.name,
  description: EstateOwnFieldRules.description,
  number_of_floors: EstateOwnFieldRules.number_of_floors,
  quality_label: QualityLabel,
  referral_link: z.string(),
  ...stamps,
});
export type EstateListForm = z.infer<typeof EstateListForm>;

/** The detailed form (`GET /estates/{id}`, POST and PATCH replies). */
export const Estate = EstateListForm.extend({
  habitable_space_m2: EstateOwnFieldRules.habitable_space_m2,
  ground_surface_m2: EstateOwnFieldRules.ground_surface_m2,
  energy_context: EstateEnergyContext,
  dimensions: EstateDimensions,
  files: z.array(EstateFile),
  // extensions
  media: z.array(EstateFile),
  roofs: z.array(Roof),
  floors: z.array(Floor),
  members: z.array(EstateMember),
});
export type Estate = z.infer<typeof Estate>;

export const EstateListItem = z.object({
  estate: EstateListForm,
  estate_provider_type: EstateProviderType,
  external_id: z.string().nullable(),
  quality_label: QualityLabel,
  referral_link: z.string(),
});
export const EstateListReply = z.object({ estates: z.array(EstateListItem) });
export type EstateListItem = z.infer<typeof EstateListItem>;
export type EstateListReply = z.infer<typeof EstateListReply>;

/**
 * One event of an estate's history (audit): who, when and what. Upload keys are never shown; a
 * CLIENT reader sees other members' details and other callers' client ids as null.
 */
export const EstateHistoryEntry = z.object({
  event_id: z.string(),
  type: z.string(),
  revision: z.number().int(),
  occurred_at: Timestamp,
  actor: z.object({ user_id: z.string().nullable(), client_id: z.string().nullable() }),
  correlation_id: z.string(),
  causation_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type EstateHistoryEntry = z.infer<typeof EstateHistoryEntry>;
